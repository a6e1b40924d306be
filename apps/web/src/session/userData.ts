import { readJson, writeJson, type StateStorage } from './storage';

/** data_user of docs/flow.md §3: a list of {description, value}. */
export interface UserDatum {
  description: string;
  value: string;
  /** Typed by the person instead of read from a document (sent to the server as such). */
  typed?: boolean;
}

export function readUserData(storage: StateStorage): UserDatum[] {
  const stored = readJson(storage, 'data_user');
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (item: unknown): item is UserDatum => typeof item === 'object' && item !== null && typeof (item as UserDatum).description === 'string' && typeof (item as UserDatum).value === 'string',
  );
}

export function setUserDatum(storage: StateStorage, description: string, value: string, typed = false): void {
  const data = readUserData(storage).filter((item) => item.description !== description);
  data.push(typed ? { description, value, typed } : { description, value });
  writeJson(storage, 'data_user', data);
}

/** The user's name when known: nombreCompleto, or nombre (docs/flow.md §3). */
export function userName(storage: StateStorage): string | null {
  const data = readUserData(storage);
  const found = data.find((d) => d.description === 'nombreCompleto') ?? data.find((d) => d.description === 'nombre');
  const name = found?.value.trim();
  return name ? name : null;
}
