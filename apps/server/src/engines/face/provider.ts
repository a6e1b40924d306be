import { lazyEngine, type LazyEngineProvider } from '../lazy-provider.js';
import type { FaceEngine } from './types.js';

/**
 * The face engine is started on first use (models load in ~0.5 s in a worker thread) and shared by every
 * request of the process. At most `maxInFlight` decisions run at once; beyond that `withSlot` resolves to
 * undefined and the caller answers 503 (one video decision is ~2 s of one core, so queueing more only adds latency).
 */
export type FaceEngineProvider = LazyEngineProvider<FaceEngine>;

export const defaultMaxInFlightDecisions = 2;

export function lazyFaceEngine(create: () => Promise<FaceEngine>, maxInFlight = defaultMaxInFlightDecisions): FaceEngineProvider {
  return lazyEngine(create, maxInFlight, { ignoreFailedStartOnClose: true });
}
