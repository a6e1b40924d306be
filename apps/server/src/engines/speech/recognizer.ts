/**
 * The spoken-code recognisers the service can run: sherpa-onnx's offline Whisper on the operator's verified model,
 * or none, saying why (not configured, model refused by its checksums, runtime or model failing to load). Without a
 * recogniser the decision rests on the timing of voice and lips (liveness.ts) and the evidence says so.
 */
import { noSpeechRecognizer, type SpeechRecognizer, type SpokenCodeCheck } from './spoken-code.js';
import { saysCode } from './spoken-digits.js';
import { lazyEngine, type LazyEngineProvider } from '../lazy-provider.js';
import type { SpeechConfig } from './config.js';
import { startWhisperEngine, SpeechEngineError, type SpeechEngine, type WhisperEngineOptions } from './engine.js';
import { verifyWhisperModel } from './model.js';
import { toFloatSamples, WHISPER_RATE } from './resample.js';

const timingOnly = 'the spoken code was not recognised, only the timing of voice and lips was checked';

/** A recogniser that cannot run, with the reason written in every decision's evidence. */
export function unavailableRecognizer(engine: string, reason: string): SpeechRecognizer {
  return {
    name: engine,
    async check() {
      return { verified: null, engine, detail: `${reason}; ${timingOnly}` };
    },
  };
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The code checked in the transcript of sherpa-onnx's offline Whisper (Spanish), run in its own process. */
export class SherpaWhisperRecognizer implements SpeechRecognizer {
  readonly name: string;

  constructor(
    private readonly provider: LazyEngineProvider<SpeechEngine>,
    label: string,
  ) {
    this.name = `sherpa-onnx ${label}`;
  }

  async check(audio: { samples: Int16Array; sampleRate: number }, code: string): Promise<SpokenCodeCheck> {
    let text: string | undefined;
    try {
      text = await this.provider.withSlot((engine) => engine.transcribe(toFloatSamples(audio.samples, audio.sampleRate), WHISPER_RATE));
    } catch (error) {
      // A dead process is replaced on the next check; this one is decided without the recogniser.
      if (!(error instanceof SpeechEngineError) || error.fatal) await this.provider.close().catch(() => undefined);
      const reason = error instanceof Error ? error.message : String(error);
      return { verified: null, engine: this.name, detail: `the speech recogniser is unavailable: ${reason}; ${timingOnly}` };
    }
    if (text === undefined) return { verified: null, engine: this.name, detail: `the speech recogniser was busy; ${timingOnly}` };
    const transcript = text.trim();
    const { verified, heard } = saysCode(transcript, code);
    return {
      verified,
      engine: this.name,
      heard,
      detail: verified ? `heard "${clip(transcript)}": the code's digits in order` : `heard "${clip(transcript)}" (digits: ${heard || 'none'}), not the code's digits in order`,
    };
  }
}

export interface SpeechSetup {
  recognizer: SpeechRecognizer;
  close(): Promise<void>;
}

export interface SpeechLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Concurrent checks per process (the face decisions that call it are limited to 2 as well). */
const maxInFlightChecks = 2;

/**
 * The recogniser of this configuration. A configured model is verified against its checksums here (at start);
 * a refused one is logged and every decision's evidence gives the reason. A verified one is loaded in the
 * background so that the log says at once whether it works; a load failure is retried on the next check.
 */
export async function createSpeechRecognizer(config: SpeechConfig, log: SpeechLog, engineOptions: Partial<Omit<WhisperEngineOptions, 'files'>> = {}): Promise<SpeechSetup> {
  if (config.kind === 'none') return { recognizer: noSpeechRecognizer, close: async () => undefined };
  const checked = await verifyWhisperModel(config);
  if (!checked.ok) {
    log.error({ modelDir: config.modelDir, reason: checked.reason }, 'the speech model was refused: the spoken code will not be recognised');
    return { recognizer: unavailableRecognizer('sherpa-onnx whisper', `the speech model was refused: ${checked.reason}`), close: async () => undefined };
  }
  log.info({ modelDir: config.modelDir, files: checked.checked }, 'speech model checksums verified');
  const provider = lazyEngine(() => startWhisperEngine({ threads: config.threads, ...engineOptions, files: checked.files }), maxInFlightChecks, {
    ignoreFailedStartOnClose: true,
    // It runs inside a face decision that already waited its turn: a busy recogniser is reported, not waited for.
    queue: { length: 0, waitMs: 0 },
  });
  const recognizer = new SherpaWhisperRecognizer(provider, checked.label);
  provider.get().then(
    (engine) => log.info({ runtime: engine.runtime, model: checked.label }, 'speech model loaded: the spoken code is recognised'),
    (error: unknown) => log.error({ reason: error instanceof Error ? error.message : String(error) }, 'the speech model could not be loaded: the spoken code will not be recognised until it can'),
  );
  return { recognizer, close: () => provider.close() };
}
