/**
 * The app's caches in one object: created once by the composition root (app.ts, one per app and so per database
 * handle), passed in Deps, and emptied together by invalidate(). A module keeps its cache in a named slot instead
 * of a module-level map keyed by the database handle, so two apps in one process (tests, SQLite and PostgreSQL)
 * never share one and a test or a bench can empty them explicitly.
 */
export class AppCaches {
  readonly #slots = new Map<string, unknown>();

  /** The value kept under `name`, created by `create` on first use and again after invalidate(). */
  slot<T>(name: string, create: () => T): T {
    const kept = this.#slots.get(name);
    if (kept !== undefined || this.#slots.has(name)) return kept as T;
    const value = create();
    this.#slots.set(name, value);
    return value;
  }

  /** Forgets every cached value (each slot is created again on its next use). */
  invalidate(): void {
    this.#slots.clear();
  }

  /** Forgets the values of these slots (a write that changed what they hold). */
  drop(...names: string[]): void {
    for (const name of names) this.#slots.delete(name);
  }
}

/** A database handle and the caches of the app that reads through it: what a cached store function needs. */
export interface Cached<D> {
  db: D;
  caches: AppCaches;
}
