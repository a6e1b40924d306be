import type { FastifyReply, FastifyRequest } from 'fastify';
import { findGrantorByApiKey, type GrantorStore } from '../store/grantors.js';
import { demoSecretKeyId } from '../secret-keys/keys.js';
import { findSecretKey, touchSecretKey, type SecretKey } from '../secret-keys/store.js';
import { HttpError } from './errors.js';

/** The OpenAPI security scheme of the calls authorised by a secret server key (registered in openapi.ts). */
export const secretKeySecurityScheme = 'secretKey';

export interface ServerCaller {
  grantor: { id: string; name: string };
  key: SecretKey;
}

export interface SecretAuthOptions {
  /** DEMO_GRANTOR: when false the demo secret is refused even if its row were active. */
  demoGrantor: boolean;
}

// RFC 6750 b64token, bounded: anything else is not a bearer credential of ours.
const bearerPattern = /^Bearer +([A-Za-z0-9\-._~+/]{1,200}=*) *$/i;

function refuse(reply: FastifyReply, message: string, error: 'invalid_request' | 'invalid_token'): HttpError {
  reply.header('www-authenticate', `Bearer realm="kyc", error="${error}"`);
  return new HttpError(401, message);
}

/**
 * The grantor of a server-to-server call, from `Authorization: Bearer <secret server key>`. Every refusal is a 401
 * with a JSON error naming what is wrong: no header, not a bearer credential, the grantor's publishable api key
 * (it is in the flow's URL, so it proves nothing), an unknown or revoked key, an inactive grantor.
 */
export async function requireSecretKey(store: GrantorStore, request: FastifyRequest, reply: FastifyReply, options: SecretAuthOptions): Promise<ServerCaller> {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw refuse(reply, 'Missing Authorization header: send Authorization: Bearer <secret server key>', 'invalid_request');
  }
  const token = bearerPattern.exec(header)?.[1];
  if (!token) throw refuse(reply, 'Malformed Authorization header: expected Bearer <secret server key>', 'invalid_request');
  const { db } = store;
  const found = await findSecretKey(db, token);
  if (!found) {
    if (await findGrantorByApiKey(store, token)) {
      throw refuse(reply, "That is the grantor's publishable api key: this call needs a secret server key (kyc-grantor secret-create)", 'invalid_token');
    }
    throw refuse(reply, 'Unknown secret server key', 'invalid_token');
  }
  if (found.key.revokedAt || (found.key.id === demoSecretKeyId && !options.demoGrantor)) {
    throw refuse(reply, 'This secret server key was revoked', 'invalid_token');
  }
  if (!found.grantor.active) throw refuse(reply, 'The grantor of this secret server key is inactive', 'invalid_token');
  await touchSecretKey(db, found.key);
  return { grantor: { id: found.grantor.id, name: found.grantor.name }, key: found.key };
}
