/**
 * A short-lived read-through cache for data read on every request and written rarely (grantors, their
 * parameters). Entries live `ttlMs` and belong to one database handle. Any write through this process bumps
 * a generation that empties every cache at once; writes by another process (the CLI, another node) show after
 * at most `ttlMs`.
 */
let generation = 0;

export function invalidateReadCaches(): void {
  generation += 1;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
  generation: number;
}

export class ReadCache<V> {
  readonly #byDatabase = new WeakMap<object, Map<string, Entry<V>>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  async get(db: object, key: string, load: () => Promise<V>): Promise<V> {
    let entries = this.#byDatabase.get(db);
    if (!entries) {
      entries = new Map();
      this.#byDatabase.set(db, entries);
    }
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now && hit.generation === generation) return hit.value;
    const loadedAt = generation;
    const value = await load();
    if (entries.size >= this.maxEntries) entries.clear();
    entries.set(key, { value, expiresAt: now + this.ttlMs, generation: loadedAt });
    return value;
  }
}
