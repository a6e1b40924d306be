import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { Metrics } from './registry.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics for a Prometheus scraper holding METRICS_TOKEN as a bearer token; without the setting the route
 * does not exist (the series may reveal traffic and capacity, so nothing is public by default).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  if (!token) return;
  const expected = digest(token);
  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new HttpError(401, 'metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
