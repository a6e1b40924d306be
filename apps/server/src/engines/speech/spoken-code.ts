/**
 * Checking the spoken code needs a Spanish speech-recognition model, and none can be installed from npm or
 * Debian: the operator brings one (README, "Spoken code"; engines/speech/). A recogniser is therefore pluggable;
 * without one the service says plainly that it did not check, and the decision relies on the mouth and voice
 * timing instead (liveness.ts).
 */
export interface SpokenCodeCheck {
  /** true/false when a recogniser ran; null when none could. */
  verified: boolean | null;
  engine: string;
  detail: string;
  /** The digits understood, in order (spoken-digits.ts), when a recogniser ran. */
  heard?: string;
}

export interface SpeechRecognizer {
  readonly name: string;
  /** Whether the digits of `code` were said in this mono PCM track. */
  check(audio: { samples: Int16Array; sampleRate: number }, code: string): Promise<SpokenCodeCheck>;
}

export const noSpeechRecognizer: SpeechRecognizer = {
  name: 'none',
  async check() {
    return {
      verified: null,
      engine: 'none',
      detail:
        'no Spanish speech-recognition model is configured on this server (ASR_MODEL_DIR, see README "Spoken code"); the spoken code was not recognised, only the timing of voice and lips was checked',
    };
  },
};
