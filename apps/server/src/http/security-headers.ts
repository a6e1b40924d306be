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
 * Camera and microphone for this origin's own pages only (the flow asks for them; a page of another origin framing
 * or embedding it gets neither), and the powerful features the product never uses, off.
 */
export const permissionsPolicy = 'camera=(self), microphone=(self), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=()';

export interface SecurityHeaderOptions {
  /** Strict-Transport-Security max-age in seconds on responses to HTTPS requests; 0 sends none (HSTS_MAX_AGE). */
  hstsMaxAgeSeconds: number;
}

/**
 * Headers on every response, set as the request arrives (an onSend hook would put every response through Fastify's
 * slower hook path): nosniff, no-referrer, the Permissions-Policy, and HSTS when the request came over HTTPS (directly
 * or, with TRUST_PROXY, through a proxy that says so). Cross-Origin-Opener-Policy is `same-origin` except on the
 * flow's pages: the flow runs in a popup a partner page opens (the launcher) and reports back through `window.opener`,
 * which that policy would cut. The Content-Security-Policy goes on HTML pages where they are served (http/web.ts).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const hsts = options.hstsMaxAgeSeconds > 0 ? `max-age=${options.hstsMaxAgeSeconds}; includeSubDomains` : null;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('permissions-policy', permissionsPolicy);
    if (!isFlowPage(request.url)) reply.header('cross-origin-opener-policy', 'same-origin');
    if (hsts && request.protocol === 'https') reply.header('strict-transport-security', hsts);
    done();
  });
}

/** Every path outside the API, the console and the health/OpenAPI endpoints is a page (or asset) of the flow. */
function isFlowPage(url: string): boolean {
  return !/^\/(v\d+\/|console(\/|$|\?)|healthz|readyz|openapi\.json)/.test(url);
}
