/**
 * The attempts service: the one sequence every capture kind follows (docs/decisions.md "One attempts service").
 * `checkOpen` before reading a request (locked, used up), `runAttempt` around the work: spend one attempt in one
 * conditional statement before the work, run it, then keep, give back or use up the attempt as the outcome says
 * (domain/attempts.ts) and lock the transaction when the last one is gone.
 */
import { attemptsLeft, attemptsState, locksAfter, refusalReason, type AttemptCounter, type AttemptEffect } from '../domain/attempts.js';
import { lockUntilAfter } from '../domain/transactions.js';
import { endAttempt, readAttempts, spendAttempt, type AttemptEnd } from '../store/attempts.js';
import type { Db } from '../store/db.js';
import { findTransaction, setLockUntil } from '../store/transactions.js';

export type OpenCheck = 'open' | 'locked' | 'exhausted' | 'unknown';

/**
 * Whether a capture may start: the transaction is known and not locked and, when `counter` is given, its
 * attempts are not used up (also after the hour's lock has passed). Reads only: the spend is runAttempt's.
 */
export async function checkOpen(db: Db, uuidTrx: string, now: Date, counter?: Pick<AttemptCounter, 'step' | 'limit'>): Promise<OpenCheck> {
  const stored = await findTransaction(db, uuidTrx);
  if (!stored) return 'unknown';
  const count = counter ? ((await readAttempts(db, uuidTrx))[counter.step] ?? 0) : 0;
  return attemptsState(stored.lockUntil, now, counter ? { count, limit: counter.limit } : undefined);
}

/** The work's answer and what it does to the attempt it spent. */
export interface AttemptWork<T> {
  value: T;
  effect: AttemptEffect;
}

/** After the work: the attempts counted, those left, and whether this outcome locked the transaction. */
export interface AttemptTally {
  count: number;
  left: number;
  locked: boolean;
}

export type AttemptRun<T> = { ran: false; reason: 'exhausted' | 'in_use' } | { ran: true; value: T; tally: AttemptTally };

const ends: Record<AttemptEffect, (limit: number) => AttemptEnd> = {
  none: () => ({ kind: 'give_back' }),
  count: () => ({ kind: 'count' }),
  exhaust: (limit) => ({ kind: 'use_all', limit }),
};

/**
 * Spends one attempt of `counter` and runs `work`. Refused (nothing run) when the attempts are used up, which
 * locks the transaction again when the counter says so, or while the ones left are being decided by other
 * requests. A work that throws (the server failed: an engine crashed, the database or blob store is down) gets its
 * attempt back and the error goes on; otherwise its effect decides, and the outcome that leaves no attempt locks
 * the transaction for the hour.
 */
export async function runAttempt<T>(db: Db, uuidTrx: string, counter: AttemptCounter, work: () => Promise<AttemptWork<T>>, now: Date = new Date()): Promise<AttemptRun<T>> {
  if (!(await spendAttempt(db, uuidTrx, counter.step, counter.limit, now))) {
    const reason = refusalReason((await readAttempts(db, uuidTrx))[counter.step] ?? 0, counter.limit);
    if (reason === 'exhausted' && counter.lockWhenRefused) await setLockUntil(db, uuidTrx, lockUntilAfter(now), now);
    return { ran: false, reason };
  }
  let done: AttemptWork<T>;
  try {
    done = await work();
  } catch (error) {
    // The original failure is what the caller must see, not a failing give-back.
    await endAttempt(db, uuidTrx, counter.step, { kind: 'give_back' }, now).catch(() => undefined);
    throw error;
  }
  const count = await endAttempt(db, uuidTrx, counter.step, ends[done.effect](counter.limit), now);
  const locked = locksAfter(done.effect, count, counter.limit);
  if (locked) await setLockUntil(db, uuidTrx, lockUntilAfter(now), now);
  return { ran: true, value: done.value, tally: { count, left: attemptsLeft(count, counter.limit), locked } };
}
