import { hashApiKey, safeEqual } from '../crypto/apikeys.js';
import type { Db } from '../store/db.js';
import { uuidv7 } from '../store/ids.js';
import { secretKeyHint } from './keys.js';
import type { GrantorSecretKeysTable } from './tables.js';

export interface SecretKey {
  id: string;
  grantorId: string;
  hint: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function toSecretKey(row: GrantorSecretKeysTable): SecretKey {
  return {
    id: row.id,
    grantorId: row.grantor_id,
    hint: row.key_hint,
    label: row.label,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Stores a key (hashed); returns its id. With `ifAbsent` an existing row with the same id is left alone. */
export async function insertSecretKey(db: Db, input: { grantorId: string; key: string; label: string; id?: string }, options: { ifAbsent?: boolean; now?: Date } = {}): Promise<string> {
  const id = input.id ?? uuidv7();
  let insert = db.insertInto('grantor_secret_keys').values({
    id,
    grantor_id: input.grantorId,
    key_hash: hashApiKey(input.key),
    key_hint: secretKeyHint(input.key),
    label: input.label,
    created_at: (options.now ?? new Date()).toISOString(),
    last_used_at: null,
    revoked_at: null,
  });
  if (options.ifAbsent) insert = insert.onConflict((oc) => oc.doNothing());
  await insert.execute();
  return id;
}

/** Every key (revoked ones too), oldest first; of one grantor when given. */
export async function listSecretKeys(db: Db, grantorId?: string): Promise<SecretKey[]> {
  let query = db.selectFrom('grantor_secret_keys').selectAll();
  if (grantorId) query = query.where('grantor_id', '=', grantorId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map(toSecretKey);
}

export async function findSecretKeyById(db: Db, id: string): Promise<SecretKey | undefined> {
  const row = await db.selectFrom('grantor_secret_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSecretKey(row) : undefined;
}

/** Revokes a key from now on; false when it was already revoked. */
export async function revokeSecretKey(db: Db, id: string, now: Date = new Date()): Promise<boolean> {
  const result = await db.updateTable('grantor_secret_keys').set({ revoked_at: now.toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Accepts a revoked key again (only the demo seed does this: DEMO_GRANTOR back on). */
export async function restoreSecretKey(db: Db, id: string): Promise<void> {
  await db.updateTable('grantor_secret_keys').set({ revoked_at: null }).where('id', '=', id).execute();
}

export interface PresentedKey {
  key: SecretKey;
  grantor: { id: string; name: string; active: boolean };
}

/** The stored key (revoked or not) that the presented secret hashes to, with its grantor. Never cached: a revocation applies at once. */
export async function findSecretKey(db: Db, presented: string): Promise<PresentedKey | undefined> {
  const hash = hashApiKey(presented);
  const row = await db
    .selectFrom('grantor_secret_keys')
    .innerJoin('grantors', 'grantors.id', 'grantor_secret_keys.grantor_id')
    .selectAll('grantor_secret_keys')
    .select(['grantors.name as grantor_name', 'grantors.active as grantor_active'])
    .where('grantor_secret_keys.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !safeEqual(hash, row.key_hash)) return undefined;
  return { key: toSecretKey(row), grantor: { id: row.grantor_id, name: row.grantor_name, active: row.grantor_active === 1 } };
}

/** Records that the key was used (at most one write a minute per key). */
export async function touchSecretKey(db: Db, key: SecretKey, now: Date = new Date()): Promise<void> {
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < 60_000) return;
  await db.updateTable('grantor_secret_keys').set({ last_used_at: now.toISOString() }).where('id', '=', key.id).execute();
}

export interface ServerAuditEvent {
  grantorId: string;
  secretKeyId: string;
  operation: string;
  status: number;
  outcome: 'match' | 'no_match' | 'refused';
  requestId: string;
  detail: Record<string, unknown>;
}

export async function insertServerAuditEvent(db: Db, event: ServerAuditEvent, now: Date = new Date()): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('server_audit_events')
    .values({
      id,
      grantor_id: event.grantorId,
      secret_key_id: event.secretKeyId,
      operation: event.operation,
      status: event.status,
      outcome: event.outcome,
      request_id: event.requestId,
      detail: JSON.stringify(event.detail),
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

export async function listServerAuditEvents(db: Db, grantorId: string) {
  return db.selectFrom('server_audit_events').selectAll().where('grantor_id', '=', grantorId).orderBy('id').execute();
}
