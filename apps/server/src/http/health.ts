import { calls } from '@kyc/contracts';
import { engineServiceReady } from '../engines/remote/client.js';
import { databaseAnswers } from '../store/db.js';
import type { Deps, ZodApp } from './deps.js';

/** A key no blob is stored under: asking the store whether it exists proves the store answers. */
const probeKey = 'readiness-probe';
const blobProbeTimeoutMs = 3_000;

async function blobStoreAnswers(blobs: Deps['blobs']): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), blobProbeTimeoutMs);
  });
  try {
    return await Promise.race([
      blobs.exists(probeKey).then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `migrationsComplete` comes from the composition root, which alone knows every feature's migrations. Engines
 * start on first use, so an engine not started yet is ready; one whose last start failed is not. With the engine
 * service (ENGINE_SERVICE_URL), the engines are ready when a worker serving them answers ready.
 */
export function registerHealthRoutes(app: ZodApp, { config, db, blobs, ocr, face }: Deps, migrationsComplete: (db: Deps['db']) => Promise<boolean>): void {
  const engineWorkers = config.engineService.urls;
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
      const [database, blobStore, engineService] = await Promise.all([databaseAnswers(db), blobStoreAnswers(blobs), engineWorkers.length > 0 ? engineServiceReady(engineWorkers) : undefined]);
      const migrations = database && (await migrationsComplete(db));
      const checks = { database, migrations, blobs: blobStore, ocrEngine: engineService ?? ocr.status() !== 'failed', faceEngine: engineService ?? face.status() !== 'failed' };
      const ready = Object.values(checks).every(Boolean);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  });
}
