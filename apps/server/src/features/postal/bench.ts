import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Cached } from '../../caches.js';
import { clearPostalLookupCache } from './cache.js';
import { lookupPostalCode } from './lookup.js';
import type { PostalTables } from './tables.js';

export interface LookupTimings {
  lookups: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

/**
 * Times `lookupPostalCode` one call after another over `codes`, `rounds` times. With `cached: false` the lookup
 * cache is cleared before every call, so each one reaches the database.
 */
export async function timePostalLookups<DB extends PostalTables>(target: Cached<Kysely<DB>>, codes: readonly string[], options: { rounds?: number; cached?: boolean } = {}): Promise<LookupTimings> {
  const rounds = options.rounds ?? 1;
  const durations: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const code of codes) {
      if (options.cached === false) clearPostalLookupCache(target.caches);
      const started = performance.now();
      await lookupPostalCode(target, code);
      durations.push(performance.now() - started);
    }
  }
  durations.sort((a, b) => a - b);
  return {
    lookups: durations.length,
    p50Ms: percentile(durations, 0.5),
    p99Ms: percentile(durations, 0.99),
    maxMs: durations[durations.length - 1] ?? Number.NaN,
  };
}
