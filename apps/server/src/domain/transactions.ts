/**
 * Pure rules about transactions (DESIGN.md: a transaction belongs to the grantor of the api key and to
 * the user who started it). Route handlers do the IO and ask these functions what to do.
 */

export const transactionMessages = {
  otherGrantor: 'La transacción no pertenece a este otorgante',
  otherClient: 'La transacción no pertenece a este cliente',
} as const;

/** Ids are uuids; compared and stored in lower case so that 'ABC…' and 'abc…' name the same transaction. */
export function normalizeId(id: string): string {
  return id.toLowerCase();
}

export interface TransactionOwner {
  grantorId: string;
  uuidUser: string;
}

export type TransactionDecision = { kind: 'create' } | { kind: 'resume' } | { kind: 'refuse'; status: 403; message: string };

/** What to do with the transaction named by the headers, given what is stored under that id. */
export function decideTransaction(existing: TransactionOwner | undefined, request: TransactionOwner): TransactionDecision {
  if (!existing) return { kind: 'create' };
  if (existing.grantorId !== request.grantorId) {
    return { kind: 'refuse', status: 403, message: transactionMessages.otherGrantor };
  }
  if (existing.uuidUser !== request.uuidUser) {
    return { kind: 'refuse', status: 403, message: transactionMessages.otherClient };
  }
  return { kind: 'resume' };
}

/** Spec §9: lock time after failure. */
export const LOCK_DURATION_MS = 60 * 60 * 1000;

export function lockUntilAfter(now: Date, durationMs: number = LOCK_DURATION_MS): string {
  return new Date(now.getTime() + durationMs).toISOString();
}

export function isLocked(lockUntil: string | null, now: Date): boolean {
  if (!lockUntil) return false;
  const until = Date.parse(lockUntil);
  return Number.isFinite(until) && until > now.getTime();
}
