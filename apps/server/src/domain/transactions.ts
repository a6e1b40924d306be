/**
 * Pure rules about transactions (DESIGN.md: a transaction belongs to the grantor of the api key and to
 * the user who started it). Route handlers do the IO and ask these functions what to do.
 */

import { RefusedError } from './refusal.js';

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

export type TransactionDecision = { kind: 'create' } | { kind: 'resume' } | { kind: 'refuse'; reason: 'transaction_other_owner'; message: string };

/** What to do with the transaction named by the headers, given what is stored under that id. */
export function decideTransaction(existing: TransactionOwner | undefined, request: TransactionOwner): TransactionDecision {
  if (!existing) return { kind: 'create' };
  if (existing.grantorId !== request.grantorId) {
    return { kind: 'refuse', reason: 'transaction_other_owner', message: transactionMessages.otherGrantor };
  }
  if (existing.uuidUser !== request.uuidUser) {
    return { kind: 'refuse', reason: 'transaction_other_owner', message: transactionMessages.otherClient };
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

/**
 * A blocked transaction (a data-subject request) is refused to every capture and read (transaction_restricted); an erased one too (transaction_erased). The
 * marks are read from the row each time: unlike ownership, they change.
 */
export function assertTransactionAvailable(transaction: { restrictedAt: string | null; erasedAt: string | null } | undefined): void {
  if (transaction?.erasedAt) {
    throw new RefusedError(
      'transaction_erased',
      `The data of this transaction were deleted on ${transaction.erasedAt} (retention policy or the person's request); only tombstones remain`,
      'Los datos de este proceso fueron eliminados.',
    );
  }
  if (transaction?.restrictedAt) {
    throw new RefusedError(
      'transaction_restricted',
      `The data of this transaction are blocked since ${transaction.restrictedAt} at the person's request: they are neither processed nor shown`,
      'Los datos de este proceso están bloqueados a petición de su titular.',
    );
  }
}
