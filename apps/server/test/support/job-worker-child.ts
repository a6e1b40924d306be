/**
 * A job worker in its own process, for the lease tests: the real worker (jobs/worker.ts) with its default lease,
 * heartbeat and poll, on the database named by JOB_CHILD_DATABASE (JSON of Config['database']), with a handler
 * for kind `lease-probe` that prints "running <id>" and never returns, so the test can kill it mid-job.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../src/config.js';
import { createDataCipher } from '../../src/crypto/data-cipher.js';
import { startJobWorker } from '../../src/jobs/worker.js';
import { createDatabase } from '../../src/store/db.js';

const database = JSON.parse(process.env.JOB_CHILD_DATABASE ?? '') as Config['database'];
const cipher = createDataCipher(Buffer.from(process.env.JOB_CHILD_KEY ?? '', 'base64'));
const db = createDatabase(database);
const log = pino({ level: 'info' }) as unknown as FastifyBaseLogger;

startJobWorker({
  db,
  cipher,
  log,
  handlers: {
    'lease-probe': async (job) => {
      process.stdout.write(`running ${job.id}\n`);
      await new Promise(() => undefined);
    },
  },
});
setInterval(() => undefined, 60_000);
