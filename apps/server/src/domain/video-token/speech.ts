/**
 * Checking the spoken code needs a Spanish speech-recognition model, and none can be installed from npm or
 * Debian (shared/notes/stack-facts.md). A recogniser is therefore pluggable; the default one says plainly that it
 * did not check, and the decision relies on the mouth and voice timing instead (liveness.ts).
 */
export interface SpokenCodeCheck {
  /** true/false when a recogniser ran; null when none could. */
  verified: boolean | null;
  engine: string;
  detail: string;
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
      detail: 'no Spanish speech-recognition model is installed on this server (see README, "Spoken code"); the spoken code was not recognised, only the timing of voice and lips was checked',
    };
  },
};
