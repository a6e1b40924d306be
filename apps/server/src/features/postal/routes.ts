import type { IncomingMessage, ServerResponse } from 'node:http';
import { calls, type TrxHeaders } from '@kyc/contracts';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { ZodType } from 'zod';
import type { AppCaches } from '../../caches.js';
import { lookupPostalCode } from './lookup.js';
import type { PostalTables } from './tables.js';

export interface PostalRoutesOptions<DB extends PostalTables = PostalTables> {
  db: Kysely<DB>;
  /** The app's caches (the lookup cache lives there; the catalogue import empties it). */
  caches: AppCaches;
  /**
   * Authenticates the api key headers and resolves the transaction of the request; throws an error carrying
   * statusCode 401/403 to refuse it. Provided by the server core. Called once the headers and the body passed
   * their schemas; `headers` are the validated `transaccion`, `cliente` and `apikey`.
   */
  resolveTransaction: (request: FastifyRequest, headers: TrxHeaders) => Promise<unknown>;
  /** Documentation-only schema additions, for the OpenAPI document (e.g. the server's shared error responses). */
  openApi?: { tags?: string[]; errorResponses?: Record<string, ZodType> };
}

/**
 * `POST /v1/postalcodes` (calls.postalCodes): the settlements, municipality and state of a postal code. An
 * unknown code answers 200 with an empty list so that the form lets the user type the address.
 * Needs the fastify-type-provider-zod validator and serializer compilers on the instance.
 */
export async function postalRoutes<DB extends PostalTables, Logger extends FastifyBaseLogger, TypeProvider extends FastifyTypeProvider>(
  app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger, TypeProvider>,
  options: PostalRoutesOptions<DB>,
): Promise<void> {
  const { resolveTransaction, openApi } = options;
  const call = calls.postalCodes;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      ...(openApi?.tags ? { tags: openApi.tags } : {}),
      headers: call.headers,
      body: call.body,
      response: { ...openApi?.errorResponses, 200: call.response },
    },
    handler: async (request) => {
      await resolveTransaction(request, request.headers);
      const address = await lookupPostalCode(options, request.body.address.cp);
      return { status: 200 as const, payload: { address } };
    },
  });
}
