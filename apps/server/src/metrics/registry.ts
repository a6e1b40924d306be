import { inSpan, SpanStatusCode } from '../tracing/spans.js';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LazyEngineProvider, Closable } from '../engines/lazy-provider.js';
import type { JobOutcome } from '../jobs/worker.js';
import type { Db } from '../store/db.js';

/**
 * The Prometheus series of one process (one registry per app, so tests can build several apps in one process):
 * HTTP request latency (and so counts) per route pattern, engine slots and decision times, the job queue read from the database at each
 * scrape, job runs, and prom-client's process metrics.
 */
export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  instrumentEngine<E extends Closable>(engine: 'ocr' | 'face', provider: LazyEngineProvider<E>, maxInFlight: number): LazyEngineProvider<E>;
  observeJob(kind: string, outcome: JobOutcome, seconds: number): void;
}

const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const decisionBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32];

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kyc_' });

  // Its _count is the request count: no separate counter to update on every request.
  const requestSeconds = new Histogram({
    name: 'kyc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'],
    buckets: requestBuckets,
    registers: [registry],
  });

  const busy = new Gauge({ name: 'kyc_engine_busy_slots', help: 'Engine runs in progress.', labelNames: ['engine'], registers: [registry] });
  const slots = new Gauge({ name: 'kyc_engine_slots', help: 'Engine runs allowed at once; past them a run waits in the bounded queue.', labelNames: ['engine'], registers: [registry] });
  const refused = new Counter({
    name: 'kyc_engine_refused_total',
    help: 'Engine runs refused with 503 Busy: the wait queue was full or the wait ran out.',
    labelNames: ['engine'],
    registers: [registry],
  });
  // Read from the providers at each scrape.
  const queuedBy = new Map<string, () => number>();
  const queued = new Gauge({
    name: 'kyc_engine_queued',
    help: 'Engine runs waiting for a slot now.',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      for (const [engine, read] of queuedBy) this.set({ engine }, read());
    },
  });
  const decisionSeconds = new Histogram({
    name: 'kyc_engine_decision_duration_seconds',
    help: 'Time of one engine run (OCR read, face decision), by outcome.',
    labelNames: ['engine', 'outcome'],
    buckets: decisionBuckets,
    registers: [registry],
  });

  const jobRuns = new Counter({
    name: 'kyc_jobs_finished_total',
    help: 'Claimed jobs ended by this process, by kind and outcome (done, retry, failed, lost lease).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const jobSeconds = new Histogram({ name: 'kyc_job_duration_seconds', help: 'Time of one job run, by kind.', labelNames: ['kind'], buckets: decisionBuckets, registers: [registry] });

  jobQueueGauges(db, registry);

  const requestChildren = new Map<string, { observe(value: number): void }>();

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      // One child per label set, found by a string key: cheaper than prom-client hashing the labels per request.
      const key = `${method} ${statusCode} ${route}`;
      let child = requestChildren.get(key);
      if (!child) {
        child = requestSeconds.labels({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` });
        requestChildren.set(key, child);
      }
      child.observe(seconds);
    },
    instrumentEngine(engine, provider, maxInFlight) {
      slots.set({ engine }, maxInFlight);
      busy.set({ engine }, 0);
      queuedBy.set(engine, () => provider.queued());
      queued.set({ engine }, 0);
      return {
        get: () => provider.get(),
        status: () => provider.status(),
        queued: () => provider.queued(),
        close: () => provider.close(),
        // A span per run (a no-op without tracing): its wait for a slot, then the run.
        withSlot: (run) =>
          inSpan(`${engine} engine`, { attributes: { 'kyc.engine': engine } }, async (span) => {
            const asked = performance.now();
            let ran = false;
            const result = await provider.withSlot(async (e) => {
              ran = true;
              busy.inc({ engine });
              const started = performance.now();
              span.setAttribute('kyc.engine.wait_ms', Math.round(started - asked));
              let outcome = 'error';
              try {
                const value = await run(e);
                outcome = 'ok';
                return value;
              } finally {
                busy.dec({ engine });
                decisionSeconds.observe({ engine, outcome }, (performance.now() - started) / 1000);
              }
            });
            if (!ran) {
              refused.inc({ engine });
              span.setStatus({ code: SpanStatusCode.ERROR, message: 'busy' });
            }
            return result;
          }),
      };
    },
    observeJob(kind, outcome, seconds) {
      jobRuns.inc({ kind, outcome });
      jobSeconds.observe({ kind }, seconds);
    },
  };
}

/**
 * Gauges of the durable job queue, read at scrape time from the shared table, so every node reports the whole
 * queue. The three gauges are collected together (prom-client collects them concurrently): one query per scrape.
 */
function jobQueueGauges(db: Db, registry: Registry): void {
  let refreshing: Promise<void> | undefined;
  const refresh = () =>
    (refreshing ??= readJobQueue(db).then(
      (rows) => {
        refreshing = undefined;
        const now = Date.now();
        for (const gauge of [due, running, oldestDue]) gauge.reset();
        for (const row of rows) {
          due.set({ kind: row.kind }, row.due);
          running.set({ kind: row.kind }, row.running);
          oldestDue.set({ kind: row.kind }, row.oldest ? Math.max(0, (now - Date.parse(row.oldest)) / 1000) : 0);
        }
      },
      (error: unknown) => {
        refreshing = undefined;
        throw error;
      },
    ));
  const collect = async () => refresh();
  const due = new Gauge({ name: 'kyc_jobs_due', help: 'Jobs waiting to run now (pending and due, or running on a lapsed lease), by kind.', labelNames: ['kind'], registers: [registry], collect });
  const running = new Gauge({ name: 'kyc_jobs_running', help: 'Jobs running on a live lease, by kind.', labelNames: ['kind'], registers: [registry], collect });
  const oldestDue = new Gauge({
    name: 'kyc_jobs_oldest_due_age_seconds',
    help: 'Age of the oldest job waiting to run, by kind (0 when none waits).',
    labelNames: ['kind'],
    registers: [registry],
    collect,
  });
}

async function readJobQueue(db: Db): Promise<{ kind: string; due: number; running: number; oldest: string | null }[]> {
  const at = new Date().toISOString();
  const isDue = sql`(state = 'pending' and run_at <= ${at}) or (state = 'running' and lease_until < ${at})`;
  const rows = await db
    .selectFrom('jobs')
    .select(['kind'])
    .select(sql<number>`sum(case when ${isDue} then 1 else 0 end)`.as('due'))
    .select(sql<number>`sum(case when state = 'running' and lease_until >= ${at} then 1 else 0 end)`.as('running'))
    .select(sql<string | null>`min(case when ${isDue} then run_at end)`.as('oldest'))
    .where('state', 'in', ['pending', 'running'])
    .groupBy('kind')
    .execute();
  return rows.map((row) => ({ kind: row.kind, due: Number(row.due), running: Number(row.running), oldest: row.oldest }));
}
