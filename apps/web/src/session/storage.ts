import type { StateKey } from '@kyc/contracts/state';

/** The browser state of docs/flow.md §3, one string per key (localStorage semantics). */
export interface StateStorage {
  get(key: StateKey): string | null;
  set(key: StateKey, value: string): void;
  remove(key: StateKey): void;
  /** False when the browser refused localStorage (cookies disabled, private mode quotas): values live in memory. */
  readonly persistent: boolean;
}

/** A Storage that works, or null when the browser refuses it (access throws with cookies disabled). */
export function probeLocalStorage(): Storage | null {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return null;
    const probe = '__kyc_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

/** Wraps a Storage; every access is guarded and falls back to memory, so the flow never throws on storage. */
export function createStateStorage(backing: Storage | null): StateStorage {
  const memory = new Map<StateKey, string>();
  return {
    persistent: backing !== null,
    get(key) {
      if (backing) {
        try {
          return backing.getItem(key);
        } catch {
          // fall through to memory
        }
      }
      return memory.get(key) ?? null;
    },
    set(key, value) {
      memory.set(key, value);
      if (backing) {
        try {
          backing.setItem(key, value);
        } catch {
          // quota or security error: the in-memory copy keeps the journey going in this tab
        }
      }
    },
    remove(key) {
      memory.delete(key);
      if (backing) {
        try {
          backing.removeItem(key);
        } catch {
          // ignore
        }
      }
    },
  };
}

let shared: StateStorage | null = null;

/** The tab's state storage (created on first use, never at import, so node tests can import this module). */
export function sessionState(): StateStorage {
  shared ??= createStateStorage(probeLocalStorage());
  return shared;
}

export function readJson(storage: StateStorage, key: StateKey): unknown {
  const raw = storage.get(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(storage: StateStorage, key: StateKey, value: unknown): void {
  storage.set(key, JSON.stringify(value));
}
