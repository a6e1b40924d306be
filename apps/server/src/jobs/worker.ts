import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { Db } from '../store/db.js';
import { claimJob, completeJob, failJob, type ClaimedJob } from './queue.js';

export type JobHandler = (job: ClaimedJob) => Promise<void>;

export interface JobWorker {
  readonly owner: string;
  /** Runs due jobs now (also called by the timer). Resolves when no due job is left. */
  poke(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The in-process worker of the embedded mode: polls the jobs table every `pollMs`, runs one job at a time, and is
 * poked right after an enqueue. Jobs left by a stopped or crashed process are picked up at start.
 */
export function startJobWorker(options: {
  db: Db;
  cipher: DataCipher;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  pollMs?: number;
  leaseMs?: number;
  backoffBaseMs?: number;
}): JobWorker {
  const owner = randomUUID();
  const { db, cipher, handlers, log } = options;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const runOnce = async (): Promise<boolean> => {
    const job = await claimJob(db, cipher, owner, leaseMs);
    if (!job) return false;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job);
      await completeJob(db, job.id, owner);
      log.info({ jobId: job.id, kind: job.kind, attempts: job.attempts }, 'job done');
    } catch (error) {
      // Kept in the jobs table and the log: SMTP replies may quote the recipient, so addresses are masked.
      const reason = (error instanceof Error ? error.message : String(error)).replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[correo]');
      const outcome = await failJob(db, job, owner, reason, new Date(), options.backoffBaseMs);
      log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, outcome, reason }, 'job failed');
    }
    return true;
  };

  const drain = async () => {
    do {
      again = false;
      while (!stopped && (await runOnce().catch((error: unknown) => {
        log.error({ err: error }, 'job worker could not claim a job');
        return false;
      }))) {
        /* keep going while jobs are due */
      }
    } while (again && !stopped);
  };

  const poke = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => void poke(), options.pollMs ?? 5_000);
  timer.unref();
  setImmediate(() => void poke());

  return {
    owner,
    poke,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
