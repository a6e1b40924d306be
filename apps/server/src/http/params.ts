import { calls, errorTexts } from '@kyc/contracts';
import { ownerParams, publicParams } from '../domain/grantor-params.js';
import { normalizeId } from '../domain/transactions.js';
import { findGrantorById, readStoredParams } from '../store/grantors.js';
import { authorizeTransaction } from './auth.js';
import type { Deps, ZodApp } from './deps.js';
import { errorResponses, HttpError } from './errors.js';

export function registerParamsRoutes(app: ZodApp, { db }: Deps): void {
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
    // The api key decides the grantor; the optional idOtorgante query of spec §7 is accepted and not trusted.
    handler: async (request, reply) => {
      const { grantor, transaction, created } = await authorizeTransaction(db, request.headers);
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, created }, created ? 'transaction created' : 'transaction resumed');
      const stored = await readStoredParams(db, grantor.id);
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: ownerParams(grantor, stored, request.headers.apikey) };
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
      const stored = await readStoredParams(db, grantor.id);
      reply.header('cache-control', 'no-cache');
      return { status: 200 as const, payload: publicParams(grantor, stored) };
    },
  });
}
