import type { OcrEngine } from './types.js';

/**
 * The OCR engine is started on first use (its workers take a moment and memory) and shared by every request of
 * the process; `close` stops it if it was ever started.
 */
export interface OcrEngineProvider {
  get(): Promise<OcrEngine>;
  close(): Promise<void>;
}

export function lazyOcrEngine(create: () => Promise<OcrEngine>): OcrEngineProvider {
  let engine: Promise<OcrEngine> | undefined;
  return {
    get() {
      engine ??= create().catch((error: unknown) => {
        engine = undefined;
        throw error;
      });
      return engine;
    },
    async close() {
      const started = engine;
      engine = undefined;
      if (started) await (await started).close();
    },
  };
}
