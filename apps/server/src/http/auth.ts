import { errorTexts, type TrxHeaders } from '@kyc/contracts';
import { decideTransaction, normalizeId } from '../domain/transactions.js';
import type { Db } from '../store/db.js';
import { findGrantorByApiKey, type Grantor } from '../store/grantors.js';
import { findClientLock, findTransaction, insertTransactionIfAbsent, type TransactionRecord } from '../store/transactions.js';

/** Who a transaction belongs to: all a request needs to be authorised. It never changes once created. */
export type TransactionOwnership = Pick<TransactionRecord, 'uuidTrx' | 'uuidUser' | 'grantorId'>;

// Ownership is immutable, so known transactions are authorised without a database round trip.
const knownOwnershipByDb = new WeakMap<Db, Map<string, TransactionOwnership>>();
const maxKnownOwnership = 20_000;

function knownOwnership(db: Db): Map<string, TransactionOwnership> {
  let known = knownOwnershipByDb.get(db);
  if (!known) {
    known = new Map();
    knownOwnershipByDb.set(db, known);
  }
  return known;
}

function remember(db: Db, ownership: TransactionOwnership): void {
  const known = knownOwnership(db);
  if (known.size >= maxKnownOwnership) known.clear();
  known.set(ownership.uuidTrx, { uuidTrx: ownership.uuidTrx, uuidUser: ownership.uuidUser, grantorId: ownership.grantorId });
}
import { HttpError } from './errors.js';

/** The active grantor of the api key, or 401 with the spec's 'Verifica tu URL' text for the user. */
export async function requireGrantor(db: Db, apiKey: string): Promise<Grantor> {
  const grantor = await findGrantorByApiKey(db, apiKey);
  if (!grantor) throw new HttpError(401, 'Invalid api key', errorTexts.badUrl);
  return grantor;
}

/**
 * The transaction named by the headers: created on first use, resumed afterwards, refused (403) when it
 * belongs to another grantor or another user. Safe under concurrent first calls: the insert is a no-op
 * when the id exists and ownership is checked on the stored row.
 */
export async function openTransaction(
  db: Db,
  grantor: Grantor,
  headers: Pick<TrxHeaders, 'transaccion' | 'cliente'>,
): Promise<{ transaction: TransactionOwnership; created: boolean }> {
  const uuidTrx = normalizeId(headers.transaccion);
  const request = { grantorId: grantor.id, uuidUser: normalizeId(headers.cliente) };
  const known = knownOwnership(db).get(uuidTrx);
  if (known) {
    const decision = decideTransaction(known, request);
    if (decision.kind === 'refuse') throw new HttpError(decision.status, decision.message);
    return { transaction: known, created: false };
  }
  let existing: TransactionOwnership | undefined = await findTransaction(db, uuidTrx);
  let created = false;
  if (decideTransaction(existing, request).kind === 'create') {
    // A client whose attempts ran out starts nothing new until the lock ends, whatever its browser kept.
    const lockedUntil = await findClientLock(db, request.grantorId, request.uuidUser);
    if (lockedUntil) {
      throw new HttpError(429, `This client is locked until ${lockedUntil} after a failure; no new transaction is started`, errorTexts.attemptsExceeded, lockedUntil);
    }
    created = await insertTransactionIfAbsent(db, { uuidTrx, ...request });
    existing = await findTransaction(db, uuidTrx);
  }
  const decision = decideTransaction(existing, request);
  if (decision.kind === 'refuse') throw new HttpError(decision.status, decision.message);
  if (!existing) throw new Error(`transaction ${uuidTrx} vanished after insert`);
  remember(db, existing);
  return { transaction: existing, created };
}

/** Grantor of the key and the transaction of the headers, in that order (401 before 403). */
export async function authorizeTransaction(db: Db, headers: TrxHeaders) {
  const grantor = await requireGrantor(db, headers.apikey);
  const { transaction, created } = await openTransaction(db, grantor, headers);
  return { grantor, transaction, created };
}
