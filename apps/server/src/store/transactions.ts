import { sql } from 'kysely';
import type { Db } from './db.js';
import type { TransactionsTable } from './schema.js';

export interface TransactionRecord {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  currentStep: string | null;
  lockUntil: string | null;
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findTransaction(db: Db, uuidTrx: string): Promise<TransactionRecord | undefined> {
  const row = await db.selectFrom('transactions').selectAll().where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** Inserts the transaction unless one with that id exists; returns whether this call created it. */
export async function insertTransactionIfAbsent(
  db: Db,
  trx: { uuidTrx: string; uuidUser: string; grantorId: string },
  now: Date = new Date(),
): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .insertInto('transactions')
    .values({
      uuid_trx: trx.uuidTrx,
      uuid_user: trx.uuidUser,
      grantor_id: trx.grantorId,
      current_step: null,
      lock_until: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('uuid_trx').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function setCurrentStep(db: Db, uuidTrx: string, step: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable('transactions')
    .set({ current_step: step, updated_at: now.toISOString() })
    .where('uuid_trx', '=', uuidTrx)
    .execute();
}

/** Sets (ISO timestamp) or clears (null) the transaction's lockout. */
export async function setLockUntil(db: Db, uuidTrx: string, lockUntil: string | null, now: Date = new Date()): Promise<void> {
  await db
    .updateTable('transactions')
    .set({ lock_until: lockUntil, updated_at: now.toISOString() })
    .where('uuid_trx', '=', uuidTrx)
    .execute();
}

/** Atomically counts one more attempt at a step and returns the new count. */
export async function incrementAttempt(db: Db, uuidTrx: string, step: string, now: Date = new Date()): Promise<number> {
  const at = now.toISOString();
  const row = await db
    .insertInto('transaction_attempts')
    .values({ uuid_trx: uuidTrx, step, count: 1, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['uuid_trx', 'step']).doUpdateSet({
        count: sql<number>`transaction_attempts.count + 1`,
        updated_at: at,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Sets the attempts of a step to at least `count` (a spoof uses them all at once); returns the stored count. */
export async function raiseAttempts(db: Db, uuidTrx: string, step: string, count: number, now: Date = new Date()): Promise<number> {
  const at = now.toISOString();
  const row = await db
    .insertInto('transaction_attempts')
    .values({ uuid_trx: uuidTrx, step, count, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['uuid_trx', 'step']).doUpdateSet({
        count: sql<number>`case when transaction_attempts.count > ${count} then transaction_attempts.count else ${count} end`,
        updated_at: at,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Attempts counted so far, by step. */
export async function readAttempts(db: Db, uuidTrx: string): Promise<Record<string, number>> {
  const rows = await db.selectFrom('transaction_attempts').select(['step', 'count']).where('uuid_trx', '=', uuidTrx).execute();
  return Object.fromEntries(rows.map((r) => [r.step, Number(r.count)]));
}

export async function resetAttempts(db: Db, uuidTrx: string, step: string): Promise<void> {
  await db.deleteFrom('transaction_attempts').where('uuid_trx', '=', uuidTrx).where('step', '=', step).execute();
}
