import type { StateStorage } from './storage';

/** Spec §9 "Lock time after failure: 1 hour". */
export const lockDurationMs = 60 * 60 * 1000;

/**
 * The browser's mirror of the lockout of docs/flow.md §4 (bloqueo, time in the state storage). The server enforces
 * its own lock; this one decides what the screens show.
 * - none: no lock; active: bloqueo 'true' and the stored time not passed; expired: bloqueo 'true', time passed.
 */
export type LockState = 'none' | 'active' | 'expired';

export function lockState(bloqueo: string | null, time: string | null, now: number): LockState {
  if (bloqueo !== 'true') return 'none';
  const until = Number(time);
  // A lock without a readable time cannot tell when it ends: it is treated as passed, never as permanent.
  if (!time || !Number.isFinite(until)) return 'expired';
  return now < until ? 'active' : 'expired';
}

/** "If bloqueo is 'true' and time has passed, the lock is cleared." Returns whether a lock is still active. */
export function refreshLock(storage: StateStorage, now: number): boolean {
  const state = lockState(storage.get('bloqueo'), storage.get('time'), now);
  if (state === 'expired') clearLock(storage);
  return state === 'active';
}

/** "Setting a lock after a failed finalisation: bloqueo true with time one hour ahead" (or until the server's lock ends). */
export function setLock(storage: StateStorage, now: number, until: number = now + lockDurationMs): void {
  storage.set('bloqueo', 'true');
  storage.set('time', String(until));
}

export function clearLock(storage: StateStorage): void {
  storage.remove('bloqueo');
  storage.remove('time');
}

export interface LockoutAcknowledgement {
  /** Clear bloqueo and time. */
  clear: boolean;
  /** Go to the grantor route /{apikey}. */
  toEntry: boolean;
}

/**
 * The lockout panel's ENTENDIDO (docs/flow.md §4): "clears the lock once the time passes [...]; otherwise navigates to
 * the grantor page." At the grantor page an active lock is not cleared (the spec's "or if already at the grantor
 * page" let ENTENDIDO → EMPEZAR start again at once, issue #21): the panel stays until the time passes
 * (docs/decisions.md "Locks that hold").
 */
export function acknowledgeLockout(state: LockState, atEntry: boolean): LockoutAcknowledgement {
  if (state !== 'active') return { clear: true, toEntry: false };
  return { clear: false, toEntry: !atEntry };
}
