import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
// Brings this feature's tables into the Database type (declaration merging; see store/schema.ts).
import type {} from './tables.js';

export interface SmsCodeRow {
  id: string;
  phoneHash: string;
  salt: string;
  codeHash: string;
  attempts: number;
  state: string;
  createdAt: number;
  expiresAt: number;
}

/** Creation times (epoch ms) of every code sent for the transaction. */
export async function sendTimes(db: Db, uuidTrx: string): Promise<number[]> {
  const rows = await db.selectFrom('sms_codes').select('created_at').where('uuid_trx', '=', uuidTrx).execute();
  return rows.map((r) => Date.parse(r.created_at));
}

export interface NewCode {
  uuidTrx: string;
  grantorId: string;
  phoneHash: string;
  phoneEnc: string;
  salt: string;
  codeHash: string;
  expiresAt: Date;
}

/** Stores a new code and retires the transaction's earlier ones: only the newest code is valid. */
export async function insertCode(db: Db, code: NewCode, now: Date = new Date()): Promise<string> {
  const id = uuidv7(now.getTime());
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('sms_codes').set({ state: 'superseded' }).where('uuid_trx', '=', code.uuidTrx).where('state', '=', 'active').execute();
    await tx
      .insertInto('sms_codes')
      .values({
        id,
        uuid_trx: code.uuidTrx,
        grantor_id: code.grantorId,
        phone_hash: code.phoneHash,
        phone_enc: code.phoneEnc,
        salt: code.salt,
        code_hash: code.codeHash,
        attempts: 0,
        state: 'active',
        created_at: now.toISOString(),
        expires_at: code.expiresAt.toISOString(),
        verified_at: null,
      })
      .execute();
  });
  return id;
}

/** A code whose SMS could not be sent: it never existed for the user, so it does not count against the limits. */
export async function deleteCode(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute();
}

/** The transaction's newest code sent to this number. */
export async function latestCode(db: Db, uuidTrx: string, phoneHash: string): Promise<SmsCodeRow | undefined> {
  const row = await db.selectFrom('sms_codes').selectAll().where('uuid_trx', '=', uuidTrx).where('phone_hash', '=', phoneHash).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    phoneHash: row.phone_hash,
    salt: row.salt,
    codeHash: row.code_hash,
    attempts: Number(row.attempts),
    state: row.state,
    createdAt: Date.parse(row.created_at),
    expiresAt: Date.parse(row.expires_at),
  };
}

/** Spends one attempt if any is left (atomic: concurrent guesses cannot exceed the limit). */
export async function spendAttempt(db: Db, id: string, maxAttempts: number): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setCodeState(db: Db, id: string, state: 'verified' | 'exhausted', now: Date = new Date()): Promise<void> {
  await db
    .updateTable('sms_codes')
    .set({ state, ...(state === 'verified' ? { verified_at: now.toISOString() } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Whether the credit-history consent was accepted in this transaction (its audit event, like /terminos). */
export async function creditConsentAccepted(db: Db, uuidTrx: string): Promise<boolean> {
  const row = await db.selectFrom('audit_events').select('id').where('uuid_trx', '=', uuidTrx).where('paso', '=', 'consulta_historial').where('tipo', '=', 'Aceptación').limit(1).executeTakeFirst();
  return row !== undefined;
}
