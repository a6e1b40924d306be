import { contentSecurityPolicy } from './security-headers.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { ZodApp } from './deps.js';
import { sendNotFound } from './errors.js';
import { isServicePath } from './paths.js';

export const webNotBuiltMessage = 'the web app is not built: run npm run build';

const immutable = 'public, max-age=31536000, immutable';

/**
 * A browser asks for text/html; a terminal client (curl, wget) sends no preference or `*\/*`. Both get the page,
 * so the URL printed at start works from either. A client that asks for something else (JSON, an image) does not.
 */
function acceptsHtml(request: FastifyRequest): boolean {
  const accept = (request.headers.accept ?? '').trim();
  if (accept === '' || accept.includes('text/html')) return true;
  return accept.split(',').every((part) => part.split(';')[0]!.trim() === '*/*');
}

/** A route of the flow (/demo, /terminos) has no file extension; a missing asset (/assets/x.js, /favicon.ico) does. */
function looksLikeRoute(pathname: string): boolean {
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}

function isPageRequest(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '/';
  const method = request.method === 'GET' || request.method === 'HEAD';
  return method && !isServicePath(pathname) && looksLikeRoute(pathname) && acceptsHtml(request);
}

function sendWebNotBuilt(reply: FastifyReply): FastifyReply {
  return reply.code(503).type('application/json; charset=utf-8').send({ status: 503, message: webNotBuiltMessage });
}

/**
 * Serves the built web app (WEB_DIST) with the SPA fallback: a page request for any path the service does
 * not own gets index.html, so that client-side routes such as /{apikey} or /terminos load the app.
 * Hashed build assets (assets/) are cached for good; everything else is revalidated.
 */
export async function registerWeb(app: ZodApp, config: Pick<Config, 'webDist'>): Promise<{ available: boolean }> {
  const root = config.webDist;
  const available = existsSync(path.join(root, 'index.html'));

  if (available) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: ['index.html'],
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders(res, filePath) {
        const relative = path.relative(root, filePath).split(path.sep).join('/');
        const cacheable = relative.startsWith('assets/') && !relative.endsWith('.html');
        res.setHeader('cache-control', cacheable ? immutable : 'no-cache');
        if (relative.endsWith('.html')) res.setHeader('content-security-policy', contentSecurityPolicy);
      },
    });
  } else {
    app.get('/', { schema: { hide: true } }, async (_request, reply) => sendWebNotBuilt(reply));
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isPageRequest(request)) return sendNotFound(request, reply);
    if (!available) return sendWebNotBuilt(reply);
    return reply.code(200).sendFile('index.html');
  });

  return { available };
}
