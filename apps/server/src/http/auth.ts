import { errorTexts, transactionTokenHeader, type TrxHeaders } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppCaches } from '../caches.js';
import type { Config } from '../config.js';
import { transactionTokens } from '../crypto/transaction-token.js';
import { assertTransactionAvailable, decideTransaction, normalizeId } from '../domain/transactions.js';
import { RefusedError } from '../domain/refusal.js';
import type { Db } from '../store/db.js';
import { findGrantorByApiKey, type Grantor, type GrantorStore } from '../store/grantors.js';
import { findClientLock, findTransaction, insertTransactionIfAbsent, type TransactionRecord } from '../store/transactions.js';

/** Who a transaction belongs to: all a request needs to be authorised. It never changes once created. */
export type TransactionOwnership = Pick<TransactionRecord, 'uuidTrx' | 'uuidUser' | 'grantorId'>;

// Ownership is immutable, so known transactions are authorised without a database round trip (the app's caches keep
// them; whether a known transaction is still available is read from the database on every call).
const maxKnownOwnership = 20_000;

function knownOwnership(caches: AppCaches): Map<string, TransactionOwnership> {
  return caches.slot('auth.knownOwnership', () => new Map<string, TransactionOwnership>());
}

function remember(caches: AppCaches, ownership: TransactionOwnership): void {
  const known = knownOwnership(caches);
  if (known.size >= maxKnownOwnership) known.clear();
  known.set(ownership.uuidTrx, { uuidTrx: ownership.uuidTrx, uuidUser: ownership.uuidUser, grantorId: ownership.grantorId });
}
import { HttpError } from './errors.js';

export { assertTransactionAvailable };
import { requireSecretKey, type ServerCaller } from './secret-auth.js';

/** assertTransactionAvailable on the stored row. */
export async function assertStoredTransactionAvailable(db: Db, uuidTrx: string): Promise<void> {
  assertTransactionAvailable(await findTransaction(db, uuidTrx));
}

/** The active grantor of the api key, or 401 with the spec's 'Verifica tu URL' text for the user. */
export async function requireGrantor(store: GrantorStore, apiKey: string): Promise<Grantor> {
  const grantor = await findGrantorByApiKey(store, apiKey);
  if (!grantor) throw new HttpError(401, 'Invalid api key', errorTexts.badUrl);
  return grantor;
}

/**
 * The transaction named by the headers: created on first use, resumed afterwards, refused (403) when it
 * belongs to another grantor or another user, 451/410 once blocked or erased (assertTransactionAvailable). Safe
 * under concurrent first calls: the insert is a no-op when the id exists and ownership is checked on the stored row.
 */
export async function openTransaction(
  { db, caches }: GrantorStore,
  grantor: Grantor,
  headers: Pick<TrxHeaders, 'transaccion' | 'cliente'>,
): Promise<{ transaction: TransactionOwnership; created: boolean }> {
  const uuidTrx = normalizeId(headers.transaccion);
  const request = { grantorId: grantor.id, uuidUser: normalizeId(headers.cliente) };
  const known = knownOwnership(caches).get(uuidTrx);
  if (known) {
    const decision = decideTransaction(known, request);
    if (decision.kind === 'refuse') throw new RefusedError(decision.reason, decision.message);
    await assertStoredTransactionAvailable(db, uuidTrx);
    return { transaction: known, created: false };
  }
  let existing: TransactionRecord | undefined = await findTransaction(db, uuidTrx);
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
  if (decision.kind === 'refuse') throw new RefusedError(decision.reason, decision.message);
  if (!existing) throw new Error(`transaction ${uuidTrx} vanished after insert`);
  assertTransactionAvailable(existing);
  remember(caches, existing);
  return { transaction: existing, created };
}

/** Grantor of the key and the transaction of the headers, in that order (401 before 403). */
export async function authorizeTransaction(store: GrantorStore, headers: TrxHeaders) {
  const grantor = await requireGrantor(store, headers.apikey);
  const { transaction, created } = await openTransaction(store, grantor, headers);
  return { grantor, transaction, created };
}

/** What the credential checks of issue #15 read besides the database. */
export interface AuthDeps {
  db: Db;
  caches: AppCaches;
  config: Pick<Config, 'demoGrantor' | 'resultLinkKey' | 'dataDir' | 'database' | 'dataEncryptionKey' | 'transactionTokenHours'>;
}

const tokenHint = `${transactionTokenHeader} (issued by GET /v1/params when the transaction starts) or Authorization: Bearer <secret server key>`;

function rawHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.raw.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * A call that answers the person's own data (credentials `flowRead` in packages/contracts): the publishable key and
 * the transaction headers as for every flow call, plus the transaction's own token or a secret server key of the
 * key's grantor. Every credential is checked before the transaction is opened, so a refused call creates nothing.
 */
export async function authorizeTransactionRead(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, headers: TrxHeaders) {
  const grantor = await requireReadCredential(deps, request, reply, headers);
  const { transaction, created } = await openTransaction(deps, grantor, headers);
  return { grantor, transaction, created };
}

/**
 * The read credential of a `flowRead` call alone (the transaction token or the grantor's secret key), without opening
 * the transaction: for calls that then authorise it another way (the journey's order check). Returns the grantor.
 */
export async function requireReadCredential(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, headers: TrxHeaders): Promise<Grantor> {
  const grantor = await requireGrantor(deps, headers.apikey);
  const token = rawHeader(request, transactionTokenHeader);
  if (token !== undefined) {
    const claims = await transactionTokens(deps).verify(token);
    if ('refused' in claims) {
      throw new HttpError(401, claims.refused === 'expired' ? 'The transaction token expired' : `Invalid ${transactionTokenHeader}`);
    }
    if (claims.uuidTrx !== normalizeId(headers.transaccion) || claims.uuidUser !== normalizeId(headers.cliente) || claims.grantorId !== grantor.id) {
      throw new HttpError(403, 'The transaction token names another transaction');
    }
  } else if (rawHeader(request, 'authorization') === undefined) {
    throw new HttpError(401, `This call answers the person's data: the publishable api key is not enough; send ${tokenHint}`);
  } else {
    const caller = await requireSecretKey(deps, request, reply, { demoGrantor: deps.config.demoGrantor });
    if (caller.grantor.id !== grantor.id) throw new HttpError(403, "The secret server key belongs to another grantor than the api key's");
  }
  return grantor;
}

/**
 * A server-to-server read of one transaction (credentials `server`): a secret server key of the grantor that owns
 * it. Unknown transaction 404; another grantor's 403.
 */
export async function authorizeServerRead(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, uuidTrx: string): Promise<{ caller: ServerCaller; transaction: TransactionRecord }> {
  const caller = await requireSecretKey(deps, request, reply, { demoGrantor: deps.config.demoGrantor });
  const transaction = await findTransaction(deps.db, normalizeId(uuidTrx));
  if (!transaction) throw new HttpError(404, 'Transaction not found');
  if (transaction.grantorId !== caller.grantor.id) throw new HttpError(403, 'This transaction belongs to another grantor than the secret server key');
  assertTransactionAvailable(transaction);
  return { caller, transaction };
}

/** The transaction token of a transaction that has just been created, in the X-Transaction-Token response header. */
export async function issueTransactionToken(deps: Pick<AuthDeps, 'config' | 'caches'>, reply: FastifyReply, grantor: Grantor, transaction: TransactionOwnership): Promise<void> {
  const token = await transactionTokens(deps).issue({ uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser, grantorId: grantor.id });
  reply.header(transactionTokenHeader, token);
}
