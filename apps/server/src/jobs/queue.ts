import type { DataCipher } from '../crypto/data-cipher.js';
import type { Db } from '../store/db.js';
import { currentRequestId } from '../request-context.js';
import { uuidv7 } from '../store/ids.js';
import { activeTraceParent } from '../tracing/spans.js';

/**
 * Durable background jobs in the database (table jobs, migration 0005_results). A job is claimed with a lease by
 * a compare-and-set update, so two nodes sharing PostgreSQL never run it at the same time; a job whose worker died
 * is claimed again once its lease lapses. Leases are short and renewed by the running worker's heartbeat
 * (renewLease), so a killed worker's job is retried within seconds; completion and failure are written only by
 * the lease's owner (at-least-once: handlers make repeats harmless). Payloads are encrypted.
 */
export interface NewJob {
  kind: string;
  uuidTrx?: string;
  payload: unknown;
  maxAttempts?: number;
  runAt?: Date;
  /** The request that enqueued it (the one being served by default): the worker logs it as reqId. */
  requestId?: string;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  uuidTrx: string | null;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  requestId: string | null;
  traceParent: string | null;
}

const jobContext = (id: string) => `jobs:${id}`;
export const defaultMaxAttempts = 6;

/** Wait before attempt n+1 after n failures: 30 s, 1 min, 2 min... capped at one hour. */
export function backoffMs(failures: number, baseMs = 30_000): number {
  return Math.min(baseMs * 2 ** Math.max(0, failures - 1), 60 * 60 * 1000);
}

export async function enqueueJob(db: Db, cipher: DataCipher, job: NewJob, now: Date = new Date()): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      uuid_trx: job.uuidTrx ?? null,
      payload_enc: cipher.encrypt(JSON.stringify(job.payload), jobContext(id)),
      state: 'pending',
      attempts: 0,
      max_attempts: job.maxAttempts ?? defaultMaxAttempts,
      run_at: (job.runAt ?? now).toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: null,
      request_id: job.requestId ?? currentRequestId() ?? null,
      trace_parent: activeTraceParent() ?? null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return id;
}

/** Claims one due job (pending and due, or running with a lapsed lease) for `owner`; undefined when none. */
export async function claimJob(db: Db, cipher: DataCipher, owner: string, leaseMs: number, now: Date = new Date()): Promise<ClaimedJob | undefined> {
  const at = now.toISOString();
  const candidates = await db
    .selectFrom('jobs')
    .select(['id'])
    .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', at)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', at)])]))
    .orderBy('run_at')
    .limit(5)
    .execute();
  for (const { id } of candidates) {
    const claimed = await db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        lease_owner: owner,
        lease_until: new Date(now.getTime() + leaseMs).toISOString(),
        attempts: eb('attempts', '+', 1),
        updated_at: at,
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', at)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', at)])]))
      .executeTakeFirst();
    if ((claimed.numUpdatedRows ?? 0n) === 0n) continue;
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return {
      id,
      kind: row.kind,
      uuidTrx: row.uuid_trx,
      payload: JSON.parse(cipher.decrypt(row.payload_enc, jobContext(id))),
      attempts: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
      requestId: row.request_id,
      traceParent: row.trace_parent,
    };
  }
  return undefined;
}

/**
 * Extends `owner`'s lease on a running job (the worker's heartbeat). False when the lease is no longer its own:
 * it lapsed and another worker claimed the job, or the job finished.
 */
export async function renewLease(db: Db, id: string, owner: string, leaseMs: number, now: Date = new Date()): Promise<boolean> {
  const renewed = await db
    .updateTable('jobs')
    .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return (renewed.numUpdatedRows ?? 0n) > 0n;
}

/** Marks the job done if `owner` still holds its lease; false when a newer claim owns it (nothing is written). */
export async function completeJob(db: Db, id: string, owner: string, now: Date = new Date()): Promise<boolean> {
  const done = await db
    .updateTable('jobs')
    .set({ state: 'done', lease_owner: null, lease_until: null, last_error: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return (done.numUpdatedRows ?? 0n) > 0n;
}

/** Records a failed attempt: retried after backoffMs, or failed for good after maxAttempts; 'lost' when `owner` no longer holds the lease. */
export async function failJob(db: Db, job: ClaimedJob, owner: string, error: string, now: Date = new Date(), baseBackoffMs?: number): Promise<'retry' | 'failed' | 'lost'> {
  const final = job.attempts >= job.maxAttempts;
  const recorded = await db
    .updateTable('jobs')
    .set({
      state: final ? 'failed' : 'pending',
      run_at: new Date(now.getTime() + backoffMs(job.attempts, baseBackoffMs)).toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: error.slice(0, 500),
      updated_at: now.toISOString(),
    })
    .where('id', '=', job.id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  if ((recorded.numUpdatedRows ?? 0n) === 0n) return 'lost';
  return final ? 'failed' : 'retry';
}

export async function jobState(db: Db, id: string) {
  const row = await db.selectFrom('jobs').select(['state', 'attempts', 'last_error', 'run_at']).where('id', '=', id).executeTakeFirst();
  return row ? { state: row.state, attempts: Number(row.attempts), lastError: row.last_error, runAt: row.run_at } : undefined;
}

/** A job's decrypted payload (a replay re-queues it as it was); undefined when the job is gone. */
export async function readJobPayload(db: Db, cipher: DataCipher, id: string): Promise<unknown> {
  const row = await db.selectFrom('jobs').select(['payload_enc']).where('id', '=', id).executeTakeFirst();
  return row ? JSON.parse(cipher.decrypt(row.payload_enc, jobContext(id))) : undefined;
}
