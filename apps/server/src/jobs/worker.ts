import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { Db } from '../store/db.js';
import { contextOfTraceParent, inSpan, SpanKind, SpanStatusCode } from '../tracing/spans.js';
import { claimJob, completeJob, failJob, renewLease, type ClaimedJob } from './queue.js';

/** What a job's span says of it (never its payload, which may hold personal data). */
function jobSpanAttributes(job: ClaimedJob) {
  return { 'kyc.job.id': job.id, 'kyc.job.kind': job.kind, 'kyc.job.attempt': job.attempts, ...(job.requestId ? { 'kyc.request_id': job.requestId } : {}) };
}

export type JobHandler = (job: ClaimedJob) => Promise<void>;

/** How a claimed job ended for this worker: 'lost' when its lease passed to another worker before the end. */
export type JobOutcome = 'done' | 'retry' | 'failed' | 'lost';

/**
 * Short leases renewed while the handler runs: a worker killed mid-job leaves a lease that lapses within
 * `defaultLeaseMs`, and the next poll (every `defaultPollMs`) claims it again.
 */
export const defaultLeaseMs = 8_000;
export const defaultPollMs = 2_000;

export interface JobWorker {
  readonly owner: string;
  /** Runs due jobs now (also called by the timer). Resolves when no due job is left. */
  poke(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs one claimed job's handler and records how it ended (done, or failed with a retry or for good). */
async function runHandler(
  queue: { db: Db; owner: string; backoffBaseMs: number | undefined },
  job: ClaimedJob,
  handler: JobHandler | undefined,
  log: FastifyBaseLogger,
  stopBeating: () => Promise<void>,
): Promise<JobOutcome> {
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler(job);
    await stopBeating();
    const outcome = (await completeJob(queue.db, job.id, queue.owner)) ? 'done' : 'lost';
    if (outcome === 'done') log.info('job done');
    else log.warn('job finished after its lease passed to another worker: not recorded');
    return outcome;
  } catch (error) {
    await stopBeating();
    // Kept in the jobs table and the log: SMTP replies may quote the recipient, so addresses are masked.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[correo]');
    const outcome = await failJob(queue.db, job, queue.owner, reason, new Date(), queue.backoffBaseMs);
    log.warn({ outcome, reason }, 'job failed');
    return outcome;
  }
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
  /** Heartbeat period; a quarter of the lease by default, so two missed beats still leave the lease held. */
  heartbeatMs?: number;
  backoffBaseMs?: number;
  /** Told of every claimed job's end (metrics). */
  onFinish?: (job: ClaimedJob, outcome: JobOutcome, seconds: number) => void;
}): JobWorker {
  const owner = randomUUID();
  const { db, cipher, handlers } = options;
  const leaseMs = options.leaseMs ?? defaultLeaseMs;
  const heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(leaseMs / 4));
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  /** Renews the lease until stopped; a beat that finds the lease gone says so once and stops. */
  const heartbeat = (job: ClaimedJob, log: FastifyBaseLogger) => {
    let beating: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      beating = renewLease(db, job.id, owner, leaseMs).then(
        (held) => {
          if (held) return;
          clearInterval(timer);
          log.warn('job lease lost to another worker: this run will not be recorded');
        },
        (error: unknown) => log.warn({ err: error }, 'job lease could not be renewed'),
      );
    }, heartbeatMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await beating;
    };
  };

  const runOnce = async (): Promise<boolean> => {
    const job = await claimJob(db, cipher, owner, leaseMs);
    if (!job) return false;
    const started = performance.now();
    // reqId is the key Fastify gives request lines, so one search finds the request and the jobs it enqueued.
    const log = options.log.child({ jobId: job.id, kind: job.kind, attempts: job.attempts, ...(job.requestId ? { reqId: job.requestId } : {}) });
    log.info('job started');
    const handler = handlers[job.kind];
    const stopBeating = heartbeat(job, log);
    // A span in the trace of the request that enqueued the job (none without tracing), whichever node runs it.
    const spanOptions = { kind: SpanKind.CONSUMER, parent: contextOfTraceParent(job.traceParent), attributes: jobSpanAttributes(job) };
    const outcome = await inSpan(`job ${job.kind}`, spanOptions, async (span) => {
      const ended = await runHandler({ db, owner, backoffBaseMs: options.backoffBaseMs }, job, handler, log, stopBeating);
      span.setAttribute('kyc.job.outcome', ended);
      if (ended !== 'done') span.setStatus({ code: SpanStatusCode.ERROR, message: ended });
      return ended;
    });
    options.onFinish?.(job, outcome, (performance.now() - started) / 1000);
    return true;
  };

  const drain = async () => {
    do {
      again = false;
      while (
        !stopped &&
        (await runOnce().catch((error: unknown) => {
          options.log.error({ err: error }, 'job worker could not claim a job');
          return false;
        }))
      ) {
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

  const timer = setInterval(() => void poke(), options.pollMs ?? defaultPollMs);
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
