import type { FaceEngine } from './types.js';

/**
 * The face engine is started on first use (models load in ~0.5 s in a worker thread) and shared by every
 * request of the process. At most `maxInFlight` decisions run at once; beyond that `withSlot` resolves to
 * undefined and the caller answers 503 (one video decision is ~2 s of one core, so queueing more only adds latency).
 */
export interface FaceEngineProvider {
  get(): Promise<FaceEngine>;
  withSlot<T>(run: (engine: FaceEngine) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

export const defaultMaxInFlightDecisions = 2;

export function lazyFaceEngine(create: () => Promise<FaceEngine>, maxInFlight = defaultMaxInFlightDecisions): FaceEngineProvider {
  let engine: Promise<FaceEngine> | undefined;
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
      if (started) await (await started.catch(() => undefined))?.close();
    },
  };
}
