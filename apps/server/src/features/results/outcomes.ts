import { journeyOrderTexts } from '@kyc/contracts';
import { RefusedError } from '../../domain/refusal.js';
import { assertTransactionAvailable, isLocked } from '../../domain/transactions.js';
import type { Db } from '../../store/db.js';
import { findTransaction } from '../../store/transactions.js';
// Brings this feature's tables into the Database type (declaration merging; see store/schema.ts).
import type {} from './tables.js';

/** The finished event of the transaction, if it was recorded. */
export async function findOutcome(db: Db, uuidTrx: string): Promise<{ status: string; finishedAt: string } | undefined> {
  const row = await db.selectFrom('transaction_outcomes').selectAll().where('uuid_trx', '=', uuidTrx).executeTakeFirst();
  return row ? { status: row.status, finishedAt: row.finished_at } : undefined;
}

/** Records the finished event; false when another request recorded it first. */
export async function recordOutcome(db: Db, uuidTrx: string, status: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .insertInto('transaction_outcomes')
    .values({ uuid_trx: uuidTrx, status, finished_at: now.toISOString() })
    .onConflict((oc) => oc.column('uuid_trx').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/**
 * For calls that change a transaction (captures, result e-mail): refused once it is finished or the person cancelled
 * it, and while it is locked after exhausted attempts or a failed finalisation.
 */
export async function assertTransactionOpen(db: Db, uuidTrx: string, now: Date = new Date()): Promise<void> {
  const [outcome, transaction] = await Promise.all([findOutcome(db, uuidTrx), findTransaction(db, uuidTrx)]);
  assertTransactionAvailable(transaction);
  if (outcome) throw new RefusedError('transaction_finished', 'The transaction is finished: it cannot be changed or re-opened');
  if (transaction?.cancelledAt)
    throw new RefusedError('transaction_cancelled', 'The transaction was cancelled by the person: it accepts no more captures; start a new one', journeyOrderTexts.cancelled);
  if (isLocked(transaction?.lockUntil ?? null, now)) {
    throw new RefusedError('transaction_locked', 'The transaction is locked after a failure', undefined, transaction?.lockUntil ?? undefined);
  }
}
