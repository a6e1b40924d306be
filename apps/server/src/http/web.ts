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

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

function isPageRequest(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '/';
  return (request.method === 'GET' || request.method === 'HEAD') && !isServicePath(pathname) && acceptsHtml(request);
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
