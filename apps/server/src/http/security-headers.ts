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

/** nosniff and no-referrer on every response; the Content-Security-Policy on every HTML page. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every response and needs no promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      reply.header('content-security-policy', contentSecurityPolicy);
    }
    done(null, payload);
  });
}
