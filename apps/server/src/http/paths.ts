/** Paths answered by the service itself; everything else belongs to the web app (SPA). */
const servicePrefixes = ['/v1/', '/v2/', '/record/', '/console/api/'];
const serviceExact = new Set(['/v1', '/v2', '/record', '/healthz', '/readyz', '/openapi.json', '/console/api', '/metrics']);

export function isServicePath(pathname: string): boolean {
  return serviceExact.has(pathname) || servicePrefixes.some((prefix) => pathname.startsWith(prefix));
}
