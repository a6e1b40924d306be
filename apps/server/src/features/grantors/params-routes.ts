import { calls, errorTexts, type GrantorParam } from '@kyc/contracts';
import type { FastifyReply } from 'fastify';
import { ownerParams, publicParams } from '../../domain/grantor-params.js';
import { normalizeId } from '../../domain/transactions.js';
import { findGrantorById, readStoredParams } from '../../store/grantors.js';
import { authorizeTransaction, issueTransactionToken } from '../../http/auth.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';

/**
 * The owner document, serialized by the route's serializer and encoded to UTF-8 once per stored-parameter
 * snapshot: it depends only on that snapshot (replaced whenever the read cache reloads it), the grantor's id and
 * name and the caller's key. Serializing and encoding it on every request were the largest costs of the flow's
 * hottest call after the socket write. Kept in the app's caches, per snapshot (a WeakMap: a replaced snapshot's
 * documents go with it).
 */
type OwnerDocuments = WeakMap<Readonly<Record<string, string>>, Map<string, Buffer>>;

function ownerDocument(
  ownerDocuments: OwnerDocuments,
  grantor: { id: string; name: string },
  stored: Readonly<Record<string, string>>,
  apiKey: string,
  serialize: (payload: { status: 200; payload: GrantorParam[] }) => string | Buffer | ArrayBuffer,
): Buffer {
  let documents = ownerDocuments.get(stored);
  if (!documents) {
    documents = new Map();
    ownerDocuments.set(stored, documents);
  }
  const key = `${grantor.id}\n${grantor.name}\n${apiKey}`;
  let document = documents.get(key);
  if (document === undefined) {
    const written = serialize({ status: 200, payload: ownerParams(grantor, stored, apiKey) });
    if (typeof written !== 'string') throw new Error('the grantor-parameters serializer did not write a string');
    document = Buffer.from(written, 'utf8');
    if (documents.size >= 100) documents.clear();
    documents.set(key, document);
  }
  return document;
}

export function registerParamsRoutes(app: ZodApp, deps: Deps): void {
  const { db, caches } = deps;
  const own = calls.grantorParams;
  app.route({
    method: own.method,
    url: own.path,
    schema: {
      summary: own.summary,
      tags: ['grantor'],
      headers: own.headers,
      querystring: own.query,
      response: { 200: own.response, ...errorResponses },
    },
    // The api key decides the grantor; the optional idOtorgante query of docs/flow.md §7 is accepted and not trusted.
    handler: async (request, reply) => {
      const { grantor, transaction, created } = await authorizeTransaction(deps, request.headers);
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, created }, created ? 'transaction created' : 'transaction resumed');
      // Only the call that created the transaction gets its token: a resumed transaction's token is already with the
      // browser that started it, and the publishable key must not mint one for a stranger's transaction (issue #15).
      if (created) await issueTransactionToken(deps, reply, grantor, transaction);
      const stored = await readStoredParams(deps, grantor.id);
      const ownerDocuments = caches.slot<OwnerDocuments>('grantors.ownerDocuments', () => new WeakMap());
      const document = ownerDocument(ownerDocuments, grantor, stored, request.headers.apikey, (payload) => reply.serialize(payload));
      // Bytes are sent as they are, under the content type the route's serializer would have set.
      const untyped: FastifyReply = reply;
      return untyped.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(document);
    },
  });

  const pub = calls.publicGrantorParams;
  app.route({
    method: pub.method,
    url: pub.path,
    schema: {
      summary: pub.summary,
      tags: ['grantor'],
      params: pub.params,
      querystring: pub.query,
      response: { 200: pub.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const grantor = await findGrantorById(db, normalizeId(request.params.idOtorgante));
      if (!grantor?.active) throw new HttpError(404, 'Grantor not found', errorTexts.badUrl);
      const stored = await readStoredParams(deps, grantor.id);
      reply.header('cache-control', 'no-cache');
      return { status: 200 as const, payload: publicParams(grantor, stored) };
    },
  });
}
