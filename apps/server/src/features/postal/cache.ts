import type { AppCaches } from '../../caches.js';

/** A settlement as the `postalcodes` call returns it. */
export interface PostalSettlement {
  municipio: string;
  estado: string;
  asentamiento: string;
}

export interface LookupCacheOptions {
  maxEntries: number;
  /** Bounds how long a node serves a catalogue that another process (the CLI, another node) replaced. */
  ttlMs: number;
}

export const defaultLookupCacheOptions: LookupCacheOptions = { maxEntries: 5_000, ttlMs: 60_000 };

interface Entry {
  settlements: readonly PostalSettlement[];
  expiresAt: number;
}

/**
 * Postal code → settlements, least-recently-used first in the Map's insertion order. The generation changes on
 * every clear, so a lookup that started before an import cannot store the old catalogue after it.
 */
export class LookupCache {
  private readonly entries = new Map<string, Entry>();
  private currentGeneration = 0;

  constructor(private readonly options: LookupCacheOptions = defaultLookupCacheOptions) {}

  get generation(): number {
    return this.currentGeneration;
  }

  get size(): number {
    return this.entries.size;
  }

  get(code: string, now = Date.now()): readonly PostalSettlement[] | undefined {
    const entry = this.entries.get(code);
    if (!entry) return undefined;
    this.entries.delete(code);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(code, entry);
    return entry.settlements;
  }

  set(code: string, settlements: readonly PostalSettlement[], generation: number, now = Date.now()): void {
    if (generation !== this.currentGeneration) return;
    this.entries.delete(code);
    this.entries.set(code, { settlements, expiresAt: now + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.entries.clear();
    this.currentGeneration += 1;
  }
}

/** The app's lookup cache, kept in its caches (one per app, so two databases in one process never mix). */
export function postalLookupCache(caches: AppCaches): LookupCache {
  return caches.slot('postal.lookup', () => new LookupCache());
}

/** Forgets every cached lookup of this app (done by importPostalCatalogue after it commits). */
export function clearPostalLookupCache(caches: AppCaches): void {
  postalLookupCache(caches).clear();
}
