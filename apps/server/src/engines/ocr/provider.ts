import type { OcrEngine } from './types.js';

/**
 * The OCR engine is started on first use (its workers take a moment and memory) and shared by every request of
 * the process; `close` stops it if it was ever started.
 */
export interface OcrEngineProvider {
  get(): Promise<OcrEngine>;
  /** Runs a read unless `maxInFlight` reads are already running (then resolves to undefined: the caller answers 503). */
  withSlot<T>(run: (engine: OcrEngine) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

/** Measured: throughput stops growing past ~4 reads in flight on 2 cores, while latency keeps rising. */
export const defaultMaxInFlightReads = 4;

export function lazyOcrEngine(create: () => Promise<OcrEngine>, maxInFlight = defaultMaxInFlightReads): OcrEngineProvider {
  let engine: Promise<OcrEngine> | undefined;
  let inFlight = 0;
  const get = () => {
    engine ??= create().catch((error: unknown) => {
      engine = undefined;
      throw error;
    });
    return engine;
  };
  return {
    get,
    async withSlot(run) {
      if (inFlight >= maxInFlight) return undefined;
      inFlight += 1;
      try {
        return await run(await get());
      } finally {
        inFlight -= 1;
      }
    },
    async close() {
      const started = engine;
      engine = undefined;
      if (started) await (await started).close();
    },
  };
}
