/**
 * The attempts rule, pure (docs/decisions.md "One attempts service"). Every capture kind (ID reading, proof of
 * address, face video, the result link's face video) spends one attempt of its step before the work, while the
 * attempts counted and those being decided are fewer than the limit; the work's outcome then counts it, gives it
 * back or uses them all; the outcome that leaves none locks the transaction for the hour. The statements are in
 * store/attempts.ts, the sequence in attempts/service.ts.
 */
import { isLocked } from './transactions.js';

/** Attempt counters are kept per step; these are the steps the spec limits (INTENTOS_*). */
export const attemptSteps = {
  idFront: { step: 'id_frontal', limitParam: 'INTENTOS_ID_FRONTAL' },
  idBack: { step: 'id_reverso', limitParam: 'INTENTOS_ID_REVERSO' },
  videoToken: { step: 'video_token', limitParam: 'INTENTOS_VIDEO_TOKEN' },
  // Spec §2 proof of address: "When front attempts reach the limit a final screen shows": unreadable proofs count.
  proof: { step: 'comprobante', limitParam: 'INTENTOS_ID_FRONTAL' },
} as const;

/** One counter and how it is enforced. */
export interface AttemptCounter {
  /** The step whose attempts are counted (`transaction_attempts.step`). */
  step: string;
  /** Attempts allowed at the step. */
  limit: number;
  /**
   * Whether a request refused because the attempts are used up locks the transaction (again) for the hour: the ID
   * reading and the face video do; the proof of address only refuses.
   */
  lockWhenRefused: boolean;
}

/**
 * What an outcome does to the attempt it spent: 'none' gives it back (a success, a refusal before any reading, a
 * recoverable face message, the server failing), 'count' keeps it (the person's capture failed), 'exhaust' uses
 * every attempt at once (a spoof).
 */
export type AttemptEffect = 'none' | 'count' | 'exhaust';

/** Attempts still available at a step with `max` allowed attempts (never negative). */
export function attemptsLeft(count: number, max: number): number {
  return Math.max(0, max - count);
}

export function attemptsExhausted(count: number, max: number): boolean {
  return count >= max;
}

/**
 * Whether one more attempt may be spent, with `count` attempts counted and `inFlight` being decided: the
 * condition that store/attempts.ts spendAttempt applies in its one statement (so concurrent requests, on one node
 * or several, never run more than the limit).
 */
export function maySpend(count: number, inFlight: number, limit: number): boolean {
  return count + inFlight < limit;
}

/**
 * Why a spend was refused: the attempts are used up ('exhausted', which locks again when the counter says so), or
 * the ones left are all being decided by other requests ('in_use': no lock, their outcomes may give them back).
 */
export function refusalReason(count: number, limit: number): 'exhausted' | 'in_use' {
  return attemptsExhausted(count, limit) ? 'exhausted' : 'in_use';
}

/** The replies' message (429, with the spec's attempts-exceeded text) for each refusal. */
export const refusalMessages = {
  exhausted: 'Attempts exhausted',
  in_use: 'Attempts exhausted: the attempts left are being decided by other requests',
} as const;

/** Whether an outcome locks the transaction: it used every attempt, or it was counted and left none. */
export function locksAfter(effect: AttemptEffect, count: number, limit: number): boolean {
  return effect === 'exhaust' || (effect === 'count' && attemptsExhausted(count, limit));
}

export type AttemptsState = 'open' | 'locked' | 'exhausted';

/**
 * Whether a capture may start: not while the transaction is locked, nor (when a counter is given) once its
 * attempts are used up, also after the hour's lock has passed.
 */
export function attemptsState(lockUntil: string | null, now: Date, counted?: { count: number; limit: number }): AttemptsState {
  if (isLocked(lockUntil, now)) return 'locked';
  if (counted && attemptsExhausted(counted.count, counted.limit)) return 'exhausted';
  return 'open';
}
