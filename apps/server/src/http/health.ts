import { calls } from '@kyc/contracts';
import { databaseAnswers } from '../store/db.js';
import type { Deps, ZodApp } from './deps.js';

/** `migrationsComplete` comes from the composition root, which alone knows every feature's migrations. */
export function registerHealthRoutes(app: ZodApp, { db }: Deps, migrationsComplete: (db: Deps['db']) => Promise<boolean>): void {
  app.route({
    method: calls.health.method,
    url: calls.health.path,
    schema: { summary: calls.health.summary, tags: ['operations'], response: { 200: calls.health.response } },
    logLevel: 'warn',
    handler: async () => ({ status: 'ok' as const }),
  });

  app.route({
    method: calls.ready.method,
    url: calls.ready.path,
    schema: {
      summary: calls.ready.summary,
      tags: ['operations'],
      response: { 200: calls.ready.response, 503: calls.ready.response },
    },
    logLevel: 'warn',
    handler: async (_request, reply) => {
      const database = await databaseAnswers(db);
      const migrations = database && (await migrationsComplete(db));
      const ready = database && migrations;
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: { database, migrations } });
    },
  });
}
