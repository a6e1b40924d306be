import { lazyEngine, type EngineQueueOptions, type LazyEngineProvider } from '../lazy-provider.js';
import type { FaceEngine } from './types.js';

/**
 * The face engine is started on first use (models load in ~0.5 s in a worker thread) and shared by every
 * request of the process. At most `maxInFlight` decisions run at once (one video decision is ~2 s of one core, so
 * running more at once only adds latency); the others wait in the provider's bounded queue, and one the queue cannot
 * take or whose wait runs out resolves to undefined: the caller answers 503 Busy.
 */
export type FaceEngineProvider = LazyEngineProvider<FaceEngine>;

export const defaultMaxInFlightDecisions = 2;

export function lazyFaceEngine(create: () => Promise<FaceEngine>, maxInFlight = defaultMaxInFlightDecisions, queue?: EngineQueueOptions, idleCloseMs = 0): FaceEngineProvider {
  return lazyEngine(create, maxInFlight, { ignoreFailedStartOnClose: true, ...(queue ? { queue } : {}), idleCloseMs });
}
