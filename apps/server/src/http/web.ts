import { contentSecurityPolicy } from './security-headers.js';
import { existsSync, readFileSync } from 'node:fs';
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

/** Another single-page app served under its own path (the review console under /console), with its own CSP. */
export interface SubApp {
  /** e.g. /console (no trailing slash). */
  prefix: string;
  /** Its built files (index.html and assets/). */
  root: string;
  contentSecurityPolicy: string;
}

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

function sendSubPage(reply: FastifyReply, sub: SubApp, html: string): FastifyReply {
  return reply.code(200).header('cache-control', 'no-cache').header('content-security-policy', sub.contentSecurityPolicy).type('text/html; charset=utf-8').send(html);
}

/**
 * Serves the built web app (WEB_DIST) with the SPA fallback: a page request for any path the service does
 * not own gets index.html, so that client-side routes such as /{apikey} or /terminos load the app.
 * Hashed build assets (assets/) are cached for good; everything else is revalidated.
 */
export async function registerWeb(app: ZodApp, config: Pick<Config, 'webDist'>, subApps: SubApp[] = []): Promise<{ available: boolean; subApps: Record<string, boolean> }> {
  const root = config.webDist;
  const available = existsSync(path.join(root, 'index.html'));
  const subPages = new Map<string, string | undefined>();
  for (const sub of subApps) {
    const index = path.join(sub.root, 'index.html');
    const html = existsSync(index) ? readFileSync(index, 'utf8') : undefined;
    subPages.set(sub.prefix, html);
    if (html === undefined) continue;
    await app.register(fastifyStatic, {
      root: sub.root,
      prefix: `${sub.prefix}/`,
      index: false,
      dotfiles: 'ignore',
      cacheControl: false,
      decorateReply: false,
      setHeaders(res, filePath) {
        const relative = path.relative(sub.root, filePath).split(path.sep).join('/');
        res.setHeader('cache-control', relative.startsWith('assets/') ? immutable : 'no-cache');
      },
    });
    // The folder itself: the static plugin (index: false) would answer 403.
    app.get(`${sub.prefix}/`, { schema: { hide: true } }, async (_request, reply) => sendSubPage(reply, sub, html));
  }

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
    const pathname = request.url.split('?')[0] ?? '/';
    const sub = subApps.find((s) => underPrefix(pathname, s.prefix));
    if (sub) {
      const html = subPages.get(sub.prefix);
      return html === undefined ? sendWebNotBuilt(reply) : sendSubPage(reply, sub, html);
    }
    if (!available) return sendWebNotBuilt(reply);
    return reply.code(200).sendFile('index.html');
  });

  return { available, subApps: Object.fromEntries([...subPages].map(([prefix, html]) => [prefix, html !== undefined])) };
}
