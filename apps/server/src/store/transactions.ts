import type { Db } from './db.js';
import { markFunnelDirty } from './funnel-marks.js';
import type { TransactionsTable } from './schema.js';

export interface TransactionRecord {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  currentStep: string | null;
  lockUntil: string | null;
  cancelledAt: string | null;
  restrictedAt: string | null;
  erasedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: TransactionsTable): TransactionRecord {
  return {
    uuidTrx: row.uuid_trx,
    uuidUser: row.uuid_user,
    grantorId: row.grantor_id,
    currentStep: row.current_step,
    lockUntil: row.lock_until,
    cancelledAt: row.cancelled_at,
    restrictedAt: row.restricted_at ?? null,
    erasedAt: row.erased_at ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findTransaction(db: Db, uuidTrx: string): Promise<TransactionRecord | undefined> {
  const row = await db.selectFrom('transactions').selectAll().where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** Inserts the transaction unless one with that id exists; returns whether this call created it. */
export async function insertTransactionIfAbsent(db: Db, trx: { uuidTrx: string; uuidUser: string; grantorId: string }, now: Date = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .insertInto('transactions')
    .values({
      uuid_trx: trx.uuidTrx,
      uuid_user: trx.uuidUser,
      grantor_id: trx.grantorId,
      current_step: null,
      lock_until: null,
      cancelled_at: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('uuid_trx').doNothing())
    .executeTakeFirst();
  const inserted = (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  // The funnel's first step, opening the link.
  if (inserted) await markFunnelDirty(db, trx.uuidTrx, trx.grantorId);
  return inserted;
}

export async function setCurrentStep(db: Db, uuidTrx: string, step: string, now: Date = new Date()): Promise<void> {
  await db.updateTable('transactions').set({ current_step: step, updated_at: now.toISOString() }).where('uuid_trx', '=', uuidTrx).execute();
}

/** Sets (ISO timestamp) or clears (null) the transaction's lockout. */
export async function setLockUntil(db: Db, uuidTrx: string, lockUntil: string | null, now: Date = new Date()): Promise<void> {
  await db.updateTable('transactions').set({ lock_until: lockUntil, updated_at: now.toISOString() }).where('uuid_trx', '=', uuidTrx).execute();
}

/**
 * The latest lock among the transactions of one grantor's client still in force at `now` (ISO), or null: the lock
 * that outlives a transaction, so a new one from the same client waits it out (docs/flow.md §4 "Lockout").
 */
export async function findClientLock(db: Db, grantorId: string, uuidUser: string, now: Date = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.max('lock_until').as('until'))
    .where('grantor_id', '=', grantorId)
    .where('uuid_user', '=', uuidUser)
    .where('lock_until', '>', now.toISOString())
    .executeTakeFirst();
  return (row?.until as string | null | undefined) ?? null;
}

/** Records the person's cancellation (the first one counts). */
export async function setCancelled(db: Db, uuidTrx: string, now: Date = new Date()): Promise<void> {
  await db.updateTable('transactions').set({ cancelled_at: now.toISOString(), updated_at: now.toISOString() }).where('uuid_trx', '=', uuidTrx).where('cancelled_at', 'is', null).execute();
}

/**
 * Why nothing more may be sent about the transaction: its person had its data blocked (a data-subject request) or
 * it was erased. Jobs queued before either (a webhook delivery, the result e-mail) check this when they run.
 */
export async function withheldReason(db: Db, uuidTrx: string): Promise<'blocked' | 'erased' | undefined> {
  const row = await db.selectFrom('transactions').select(['restricted_at', 'erased_at']).where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  if (row?.erased_at) return 'erased';
  if (row?.restricted_at) return 'blocked';
  return undefined;
}
