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

/** One cache per database handle, so two databases in one process (tests, SQLite and PostgreSQL) never mix. */
const caches = new WeakMap<object, LookupCache>();

export function lookupCacheFor(db: object): LookupCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LookupCache();
    caches.set(db, cache);
  }
  return cache;
}

/** Forgets every cached lookup of this database handle (done by importPostalCatalogue after it commits). */
export function clearPostalLookupCache(db: object): void {
  caches.get(db)?.clear();
}
