import { sql } from 'kysely';
import type { Db } from './db.js';

/**
 * The attempt counters (`transaction_attempts`, one row per transaction and step): `count` holds the attempts
 * whose outcome counted, `in_flight` those spent and still being decided. Each change is one statement, atomic on
 * SQLite and PostgreSQL alike, so that concurrent requests on one node or on several sharing the database agree
 * (the rule is domain/attempts.ts; the sequence attempts/service.ts).
 */

/**
 * Spends one attempt while `count + in_flight < limit`: true when this request may do its work. One statement
 * (insert, or on conflict an update guarded by the condition), so no two requests take the same last place.
 */
export async function spendAttempt(db: Db, uuidTrx: string, step: string, limit: number, now: Date = new Date()): Promise<boolean> {
  if (limit < 1) return false;
  const at = now.toISOString();
  const row = await db
    .insertInto('transaction_attempts')
    .values({ uuid_trx: uuidTrx, step, count: 0, in_flight: 1, updated_at: at })
    .onConflict((oc) =>
      oc
        .columns(['uuid_trx', 'step'])
        .doUpdateSet({ in_flight: sql<number>`transaction_attempts.in_flight + 1`, updated_at: at })
        .where(sql<number>`transaction_attempts.count + transaction_attempts.in_flight`, '<', limit),
    )
    .returning('count')
    .executeTakeFirst();
  return row !== undefined;
}

/** How a spent attempt ends: given back, counted, or counted as every attempt of the step (at least `limit`). */
export type AttemptEnd = { kind: 'give_back' } | { kind: 'count' } | { kind: 'use_all'; limit: number };

/** Ends an attempt spent by spendAttempt, in one statement; returns the counted attempts after it. */
export async function endAttempt(db: Db, uuidTrx: string, step: string, end: AttemptEnd, now: Date = new Date()): Promise<number> {
  const count = end.kind === 'give_back' ? sql<number>`count` : end.kind === 'count' ? sql<number>`count + 1` : sql<number>`case when count > ${end.limit} then count else ${end.limit} end`;
  const row = await db
    .updateTable('transaction_attempts')
    .set({ count, in_flight: sql<number>`case when in_flight > 0 then in_flight - 1 else 0 end`, updated_at: now.toISOString() })
    .where('uuid_trx', '=', uuidTrx)
    .where('step', '=', step)
    .returning('count')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
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

/** Attempts counted so far, by step (steps with none counted are left out, also while one is being decided). */
export async function readAttempts(db: Db, uuidTrx: string): Promise<Record<string, number>> {
  const rows = await db.selectFrom('transaction_attempts').select(['step', 'count']).where('uuid_trx', '=', uuidTrx).where('count', '>', 0).execute();
  return Object.fromEntries(rows.map((r) => [r.step, Number(r.count)]));
}

export async function resetAttempts(db: Db, uuidTrx: string, step: string): Promise<void> {
  await db.deleteFrom('transaction_attempts').where('uuid_trx', '=', uuidTrx).where('step', '=', step).execute();
}
