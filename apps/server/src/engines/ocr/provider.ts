import { lazyEngine, type EngineQueueOptions, type LazyEngineProvider } from '../lazy-provider.js';
import type { OcrEngine } from './types.js';

/**
 * The OCR engine is started on first use (its workers take a moment and memory) and shared by every request of
 * the process; `close` stops it if it was ever started. `withSlot` runs a read when fewer than `maxInFlight` are
 * running, else queues it (bounded, with a deadline); refused by the queue it resolves to undefined: 503 Busy.
 */
export type OcrEngineProvider = LazyEngineProvider<OcrEngine>;

/** Measured: throughput stops growing past ~4 reads in flight on 2 cores, while latency keeps rising. */
export const defaultMaxInFlightReads = 4;

export function lazyOcrEngine(create: () => Promise<OcrEngine>, maxInFlight = defaultMaxInFlightReads, queue?: EngineQueueOptions, idleCloseMs = 0): OcrEngineProvider {
  return lazyEngine(create, maxInFlight, { ...(queue ? { queue } : {}), idleCloseMs });
}
