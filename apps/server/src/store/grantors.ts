import { apiKeyPrefix, hashApiKey, safeEqual } from '../crypto/apikeys.js';
import type { AppCaches, Cached } from '../caches.js';
import type { Db } from './db.js';
import { ReadCache } from './read-cache.js';
import type { GrantorsTable } from './schema.js';

/** The database and the app's caches the grantor reads go through (writes empty them). */
export type GrantorStore = Cached<Db>;

// Read on every request of the flow; a key rotation or deactivation by another process applies within this time.
const cacheTtlMs = 5_000;
const grantorsSlot = 'grantors.byKeyHash';
const paramsSlot = 'grantors.paramsByGrantor';

function grantorsByKeyHash(caches: AppCaches): ReadCache<GrantorsTable | undefined> {
  return caches.slot(grantorsSlot, () => new ReadCache<GrantorsTable | undefined>(cacheTtlMs));
}

function paramsByGrantor(caches: AppCaches): ReadCache<Readonly<Record<string, string>>> {
  return caches.slot(paramsSlot, () => new ReadCache<Readonly<Record<string, string>>>(cacheTtlMs));
}

/**
 * Empties this app's grantor and parameter caches: every write below calls it after its statement; a caller that
 * writes inside a database transaction calls it again once the transaction has committed.
 */
export function invalidateGrantorCaches(caches: AppCaches): void {
  caches.drop(grantorsSlot, paramsSlot);
}

export interface Grantor {
  id: string;
  name: string;
  active: boolean;
  apikeyPrefix: string;
  /** An empty ORIGENES_LAUNCHER opens the launcher to every origin (older grantors and the demo); else it is closed. */
  launcherAnyOrigin: boolean;
  createdAt: string;
  updatedAt: string;
}

function toGrantor(row: GrantorsTable): Grantor {
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    apikeyPrefix: row.apikey_prefix,
    launcherAnyOrigin: row.launcher_any_origin === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The active grantor that owns this api key, if any. */
export async function findGrantorByApiKey({ db, caches }: GrantorStore, apiKey: string): Promise<Grantor | undefined> {
  const hash = hashApiKey(apiKey);
  const row = await grantorsByKeyHash(caches).get(hash, () => db.selectFrom('grantors').selectAll().where('apikey_hash', '=', hash).executeTakeFirst());
  // The key is hashed once: the row was found by this hash, compared again here in constant time.
  if (!row || row.active !== 1 || !safeEqual(hash, row.apikey_hash)) return undefined;
  return toGrantor(row);
}

export async function findGrantorById(db: Db, id: string): Promise<Grantor | undefined> {
  const row = await db.selectFrom('grantors').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toGrantor(row) : undefined;
}

export async function listGrantors(db: Db): Promise<Grantor[]> {
  const rows = await db.selectFrom('grantors').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toGrantor);
}

/** Inserts a grantor; with `ifAbsent` an existing row (same id or key) is left alone instead of failing. */
export async function insertGrantor(
  { db, caches }: GrantorStore,
  grantor: { id: string; name: string; apiKey: string; active?: boolean; launcherAnyOrigin?: boolean },
  options: { ifAbsent?: boolean; now?: Date } = {},
): Promise<void> {
  const at = (options.now ?? new Date()).toISOString();
  let insert = db.insertInto('grantors').values({
    id: grantor.id,
    name: grantor.name,
    apikey_hash: hashApiKey(grantor.apiKey),
    apikey_prefix: apiKeyPrefix(grantor.apiKey),
    active: grantor.active === false ? 0 : 1,
    launcher_any_origin: grantor.launcherAnyOrigin ? 1 : 0,
    created_at: at,
    updated_at: at,
  });
  if (options.ifAbsent) insert = insert.onConflict((oc) => oc.doNothing());
  await insert.execute();
  invalidateGrantorCaches(caches);
}

/** Replaces the grantor's api key; the previous key stops working at once. */
export async function replaceApiKey({ db, caches }: GrantorStore, id: string, apiKey: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('grantors')
    .set({ apikey_hash: hashApiKey(apiKey), apikey_prefix: apiKeyPrefix(apiKey), updated_at: now.toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  invalidateGrantorCaches(caches);
  return result.numUpdatedRows > 0n;
}

export async function setGrantorActive({ db, caches }: GrantorStore, id: string, active: boolean, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('grantors')
    .set({ active: active ? 1 : 0, updated_at: now.toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  invalidateGrantorCaches(caches);
  return result.numUpdatedRows > 0n;
}

/** The grantor's stored parameter overrides (not merged with defaults), through the app's cache. Shared: do not mutate. */
export async function readStoredParams({ db, caches }: GrantorStore, grantorId: string): Promise<Readonly<Record<string, string>>> {
  return paramsByGrantor(caches).get(grantorId, () => loadStoredParams(db, grantorId));
}

/** readStoredParams straight from the database, e.g. inside a database transaction. */
export async function loadStoredParams(db: Db, grantorId: string): Promise<Readonly<Record<string, string>>> {
  const rows = await db.selectFrom('grantor_params').select(['id_campo', 'valor']).where('grantor_id', '=', grantorId).execute();
  return Object.freeze(Object.fromEntries(rows.map((r) => [r.id_campo, r.valor])));
}

/**
 * Stores parameter values. With `keepExisting` a value already stored is left alone (used by the seed,
 * so that an operator's change survives restarts).
 */
export async function writeParams({ db, caches }: GrantorStore, grantorId: string, values: Record<string, string>, options: { keepExisting?: boolean; now?: Date } = {}): Promise<void> {
  const at = (options.now ?? new Date()).toISOString();
  const rows = Object.entries(values).map(([id_campo, valor]) => ({ grantor_id: grantorId, id_campo, valor, updated_at: at }));
  if (rows.length === 0) return;
  await db
    .insertInto('grantor_params')
    .values(rows)
    .onConflict((oc) =>
      options.keepExisting
        ? oc.columns(['grantor_id', 'id_campo']).doNothing()
        : oc.columns(['grantor_id', 'id_campo']).doUpdateSet((eb) => ({
            valor: eb.ref('excluded.valor'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
    )
    .execute();
  invalidateGrantorCaches(caches);
}

/** Removes stored parameter values: the parameters go back to their defaults. */
export async function deleteParams({ db, caches }: GrantorStore, grantorId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('grantor_params').where('grantor_id', '=', grantorId).where('id_campo', 'in', ids).execute();
  invalidateGrantorCaches(caches);
}
