import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { calls, errorTexts, paramValue, type GrantorParam } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorizeTransaction, requireGrantor } from '../../http/auth.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { readStoredParams, type Grantor, type GrantorStore } from '../../store/grantors.js';
import { launcherTokens, LauncherTokenError, originAllowed, originOf } from './tokens.js';

/** Stable path of the launcher builds: the major version is in the path, the file may change within it. */
export const launcherPathPrefix = '/launcher/v1/';
const launcherFiles: Record<string, string> = { 'launcher.js': 'launcher.js', 'launcher.mjs': 'launcher.mjs' };

async function grantorParams(store: GrantorStore, grantor: Grantor): Promise<GrantorParam[]> {
  return Object.entries(await readStoredParams(store, grantor.id)).map(([idCampo, valor]) => ({ idCampo, valor }));
}

/** The partner page calls identity and auth from its own origin: CORS for these two calls only, never with cookies. */
function allowCors(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  }
}

async function requireAllowedOrigin(store: GrantorStore, grantor: Grantor, origin: string | null): Promise<string> {
  if (!origin) throw new HttpError(400, 'The Origin header is required: call from the partner page');
  const allowed = paramValue(await grantorParams(store, grantor), 'ORIGENES_LAUNCHER');
  if (!originAllowed(allowed, origin, grantor.launcherAnyOrigin)) {
    throw new HttpError(
      403,
      allowed.trim() === ''
        ? `No origin may use this grantor's launcher yet: set the grantor parameter ORIGENES_LAUNCHER to the partner pages' origins (e.g. https://tienda.example)`
        : `Origin ${origin} is not allowed for this grantor (ORIGENES_LAUNCHER)`,
    );
  }
  return origin;
}

export function registerLauncherRoutes(app: ZodApp, { db, cipher, config, caches }: Deps): void {
  const store = { db, caches };
  const tokens = launcherTokens(config.launcherJwtSecret ?? cipher.deriveKey('launcher-jwt'), config.launcherTokenTtlSeconds ?? 600);

  for (const call of [calls.launcherIdentity, calls.launcherAuth]) {
    app.options(call.path, { schema: { hide: true } }, async (request, reply) => {
      allowCors(request, reply);
      reply.header('access-control-allow-methods', 'POST');
      reply.header('access-control-allow-headers', 'apikey, content-type');
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    });
  }

  const identity = calls.launcherIdentity;
  app.route({
    method: identity.method,
    url: identity.path,
    schema: { summary: identity.summary, tags: ['launcher'], headers: identity.headers, body: identity.body, response: { 200: identity.response, ...errorResponses } },
    onRequest: async (request, reply) => allowCors(request, reply),
    handler: async (request, reply) => {
      const grantor = await requireGrantor(store, request.headers.apikey);
      await requireAllowedOrigin(store, grantor, originOf(request.headers.origin));
      const uuid = (request.body.uuid ?? randomUUID()).toLowerCase();
      await db
        .insertInto('launcher_identities')
        .values({ grantor_id: grantor.id, uuid_user: uuid, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['grantor_id', 'uuid_user']).doNothing())
        .execute();
      request.log.info({ grantorId: grantor.id, uuidUser: uuid }, 'launcher identity issued');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { uuid } };
    },
  });

  const auth = calls.launcherAuth;
  app.route({
    method: auth.method,
    url: auth.path,
    schema: { summary: auth.summary, tags: ['launcher'], body: auth.body, response: { 200: auth.response, ...errorResponses } },
    onRequest: async (request, reply) => allowCors(request, reply),
    handler: async (request, reply) => {
      const { uuid, key } = request.body.user;
      const grantor = await requireGrantor(store, key);
      const origin = await requireAllowedOrigin(store, grantor, originOf(request.headers.origin));
      const known = await db.selectFrom('launcher_identities').select('uuid_user').where('grantor_id', '=', grantor.id).where('uuid_user', '=', uuid.toLowerCase()).executeTakeFirst();
      if (!known) throw new HttpError(401, 'Unknown user: call the identity endpoint first');
      const token = await tokens.issue({ uuid: uuid.toLowerCase(), grantorId: grantor.id, origin });
      request.log.info({ grantorId: grantor.id, uuidUser: uuid, origin }, 'launcher token issued');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { token } };
    },
  });

  const verify = calls.launcherVerify;
  app.route({
    method: verify.method,
    url: verify.path,
    schema: { summary: verify.summary, tags: ['launcher'], headers: verify.headers, body: verify.body, response: { 200: verify.response, ...errorResponses } },
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeTransaction(store, request.headers);
      let claims;
      try {
        claims = await tokens.verify(request.body.token);
      } catch (error) {
        const reason = error instanceof LauncherTokenError ? error.message : 'token refused';
        throw new HttpError(401, `Launcher token refused: ${reason}`, errorTexts.badUrl);
      }
      if (claims.grantorId !== grantor.id) throw new HttpError(401, 'Launcher token refused: issued to another grantor', errorTexts.badUrl);
      if (claims.uuid !== transaction.uuidUser) throw new HttpError(401, 'Launcher token refused: issued to another user', errorTexts.badUrl);
      if (originOf(request.body.referer) !== claims.origin) {
        throw new HttpError(401, 'Launcher token refused: the referer is not the origin it was issued to', errorTexts.badUrl);
      }
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, origin: claims.origin }, 'popup mode verified');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { uuid: claims.uuid, origin: claims.origin, expiresAt: claims.expiresAt.toISOString() } };
    },
  });

  registerLauncherFiles(app, config.launcherDist);
}

interface LauncherFile {
  body: Buffer;
  etag: string;
}

function loadFile(dir: string, name: string): LauncherFile | null {
  try {
    const body = readFileSync(path.join(dir, name));
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  } catch {
    return null;
  }
}

/**
 * The built launcher at a stable path (/launcher/v1/launcher.js, IIFE; launcher.mjs, ESM), loaded once at start:
 * cached for an hour and revalidated by ETag, readable from any origin (partner pages load it).
 */
function registerLauncherFiles(app: ZodApp, dir: string | undefined): void {
  const files = new Map<string, LauncherFile>();
  for (const name of Object.keys(launcherFiles)) {
    const file = dir ? loadFile(dir, name) : null;
    if (file) files.set(name, file);
  }
  if (files.size === 0) app.log.warn({ launcherDist: dir }, 'the launcher is not built: run npm run build');

  app.get(`${launcherPathPrefix}:file`, { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    if (!(name in launcherFiles)) throw new HttpError(404, 'Not found');
    const file = files.get(name);
    if (!file) throw new HttpError(503, 'The launcher is not built: run npm run build');
    reply.header('cache-control', 'public, max-age=3600, stale-while-revalidate=86400');
    reply.header('etag', file.etag);
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(file.body);
  });
}
