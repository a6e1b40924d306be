import type { FastifyInstance } from 'fastify';

/** The flow loads nothing from other origins (DESIGN.md: no external fonts, scripts or CDNs). */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The review console (apps/console): stricter than the flow's, it needs no inline style, blob or media.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * nosniff and no-referrer on every response, set as the request arrives (an onSend hook would put every
 * response through Fastify's slower hook path). The Content-Security-Policy goes on HTML pages where they are
 * served (http/web.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    done();
  });
}
