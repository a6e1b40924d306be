import { lazyEngine, type LazyEngineProvider } from '../lazy-provider.js';
import type { OcrEngine } from './types.js';

/**
 * The OCR engine is started on first use (its workers take a moment and memory) and shared by every request of
 * the process; `close` stops it if it was ever started. `withSlot` runs a read unless `maxInFlight` reads are
 * already running (then resolves to undefined: the caller answers 503).
 */
export type OcrEngineProvider = LazyEngineProvider<OcrEngine>;

/** Measured: throughput stops growing past ~4 reads in flight on 2 cores, while latency keeps rising. */
export const defaultMaxInFlightReads = 4;

export function lazyOcrEngine(create: () => Promise<OcrEngine>, maxInFlight = defaultMaxInFlightReads): OcrEngineProvider {
  return lazyEngine(create, maxInFlight);
}
