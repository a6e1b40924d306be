/**
 * A short-lived read-through cache for data read on every request and written rarely (grantors, their
 * parameters). Entries live `ttlMs`. It lives in a slot of the app's caches (src/caches.ts): a write through this
 * app drops the slot, so the next read builds a new cache (a read that started before the write fills the dropped
 * one, never the new); writes by another process (the CLI, another node) show after at most `ttlMs`.
 */
interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class ReadCache<V> {
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, expiresAt: now + this.ttlMs });
    return value;
  }
}
