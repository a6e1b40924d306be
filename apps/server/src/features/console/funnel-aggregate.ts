import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db } from '../../store/db.js';
import { funnelFinishedOrd, reachedCte } from './funnel.js';
import type {} from './tables.js';

/**
 * The funnel's daily aggregate (issue #16; docs/decisions.md "A daily funnel aggregate"). Each transaction's
 * contribution (one `console_funnel_steps` row per step reached: its duration since the previous step reached, the
 * duration's bucket, whether it is the furthest step) is summed per grantor, UTC day of opening and step into
 * `console_funnel_days` (reached, stopped, a histogram of durations). Writes that can change a contribution mark the
 * transaction (store/funnel-marks.ts); `refreshFunnelAggregate` folds the marked ones: it takes each one's old
 * contribution out of the days and puts the recomputed one in, under one lock per grantor, so a fold is idempotent
 * and a mark written meanwhile is kept for the next fold. A grantor's first fold backfills every transaction.
 */

/** Ratio of consecutive bucket bounds: bucket b ≥ 1 holds durations in [R^(b-1), R^b) ms; bucket 0 holds 0 ms. */
const bucketRatio = 1.1;
const logRatio = Math.log(bucketRatio);
const batchSize = 500;

export function bucketOf(ms: number): number {
  return ms < 1 ? 0 : 1 + Math.floor(Math.log(ms) / logRatio);
}

interface StepRow {
  uuid_trx: string;
  ord: number;
  grantor_id: string;
  created_at: string;
  ms: number | null;
  bucket: number | null;
  last: number;
}

interface ReachedRow {
  uuid_trx: string;
  created_at: string;
  ord: number | string;
  at: string;
}

/** The steps reached by the transactions a predicate over `transactions t` selects (funnel.ts reachedCte). */
async function reachedOf(db: Db, cohort: RawBuilder<unknown>): Promise<ReachedRow[]> {
  const result = await sql<ReachedRow>`
    with cohort as (select t.uuid_trx, t.created_at from transactions t where ${cohort}),
    ${reachedCte()}
    select r.uuid_trx, c.created_at, r.ord, r.at from reached r join cohort c on c.uuid_trx = r.uuid_trx
  `.execute(db);
  return result.rows;
}

/** Each transaction's rows: steps in the journey's order, the time since the previous step reached (never negative). */
export function contributions(grantorId: string, reached: ReachedRow[]): StepRow[] {
  const byTrx = new Map<string, ReachedRow[]>();
  for (const row of reached) {
    const list = byTrx.get(row.uuid_trx);
    if (list) list.push(row);
    else byTrx.set(row.uuid_trx, [row]);
  }
  const out: StepRow[] = [];
  for (const [uuidTrx, rows] of byTrx) {
    rows.sort((a, b) => Number(a.ord) - Number(b.ord));
    let previous: number | undefined;
    rows.forEach((row, i) => {
      const at = Date.parse(row.at);
      const ms = previous === undefined ? null : Math.max(0, at - previous);
      previous = at;
      out.push({ uuid_trx: uuidTrx, ord: Number(row.ord), grantor_id: grantorId, created_at: row.created_at, ms, bucket: ms === null ? null : bucketOf(ms), last: i === rows.length - 1 ? 1 : 0 });
    });
  }
  return out;
}

interface DayDelta {
  reached: number;
  stopped: number;
  hist: Map<number, number>;
}

function addTo(deltas: Map<string, DayDelta>, row: StepRow, sign: 1 | -1): void {
  const key = `${row.created_at.slice(0, 10)}|${row.ord}`;
  const delta = deltas.get(key) ?? { reached: 0, stopped: 0, hist: new Map<number, number>() };
  deltas.set(key, delta);
  delta.reached += sign;
  if (row.last === 1 && row.ord !== funnelFinishedOrd) delta.stopped += sign;
  if (row.bucket !== null) delta.hist.set(row.bucket, (delta.hist.get(row.bucket) ?? 0) + sign);
}

/** Adds the deltas to the grantor's day rows (read, merged, written back; the caller holds the grantor's lock). */
async function applyDeltas(tx: Db, grantorId: string, deltas: Map<string, DayDelta>): Promise<void> {
  if (deltas.size === 0) return;
  const days = [...new Set([...deltas.keys()].map((k) => k.split('|')[0]!))];
  const current = await tx.selectFrom('console_funnel_days').selectAll().where('grantor_id', '=', grantorId).where('day', 'in', days).execute();
  const byKey = new Map(current.map((r) => [`${r.day}|${Number(r.ord)}`, r]));
  const rows = [...deltas].map(([key, delta]) => {
    const [day, ord] = key.split('|') as [string, string];
    const row = byKey.get(key);
    const hist = new Map<number, number>(Object.entries(row ? (JSON.parse(row.hist) as Record<string, number>) : {}).map(([b, n]) => [Number(b), n]));
    for (const [bucket, n] of delta.hist) {
      const next = (hist.get(bucket) ?? 0) + n;
      if (next === 0) hist.delete(bucket);
      else hist.set(bucket, next);
    }
    return {
      grantor_id: grantorId,
      day,
      ord: Number(ord),
      reached: Number(row?.reached ?? 0) + delta.reached,
      stopped: Number(row?.stopped ?? 0) + delta.stopped,
      hist: JSON.stringify(Object.fromEntries([...hist].sort((a, b) => a[0] - b[0]))),
    };
  });
  for (let i = 0; i < rows.length; i += batchSize) {
    await tx
      .insertInto('console_funnel_days')
      .values(rows.slice(i, i + batchSize))
      .onConflict((oc) => oc.columns(['grantor_id', 'day', 'ord']).doUpdateSet((eb) => ({ reached: eb.ref('excluded.reached'), stopped: eb.ref('excluded.stopped'), hist: eb.ref('excluded.hist') })))
      .execute();
  }
}

/**
 * Recomputes the contribution of these transactions of one grantor and folds the change into the days, in one
 * database transaction under the grantor's lock (PostgreSQL: an advisory lock; SQLite has one writer). `marks` are the
 * dirty marks read for them, deleted only if unchanged.
 */
async function fold(db: Db, grantorId: string, uuids: string[], marks: { uuid_trx: string; token: string }[]): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtext(${`console_funnel:${grantorId}`}))`.execute(tx);
    const old = await tx.selectFrom('console_funnel_steps').selectAll().where('uuid_trx', 'in', uuids).execute();
    const fresh = contributions(grantorId, await reachedOf(tx, sql`t.grantor_id = ${grantorId} and t.uuid_trx in (${sql.join(uuids)})`));
    const deltas = new Map<string, DayDelta>();
    for (const row of old) addTo(deltas, { ...row, ord: Number(row.ord), ms: row.ms === null ? null : Number(row.ms), last: Number(row.last) }, -1);
    for (const row of fresh) addTo(deltas, row, 1);
    await applyDeltas(tx, grantorId, deltas);
    await tx.deleteFrom('console_funnel_steps').where('uuid_trx', 'in', uuids).execute();
    for (let i = 0; i < fresh.length; i += batchSize)
      await tx
        .insertInto('console_funnel_steps')
        .values(fresh.slice(i, i + batchSize))
        .execute();
    if (marks.length > 0) {
      const pairs = marks.map((m) => `${m.uuid_trx}:${m.token}`);
      await tx.deleteFrom('console_funnel_dirty').where('uuid_trx', 'in', uuids).where(sql<string>`uuid_trx || ':' || token`, 'in', pairs).execute();
    }
  });
}

/** Folds every transaction of a grantor (its first refresh), in batches by folio. */
async function backfill(db: Db, grantorId: string): Promise<number> {
  let after = '';
  let folded = 0;
  for (;;) {
    const rows = await db.selectFrom('transactions').select('uuid_trx').where('grantor_id', '=', grantorId).where('uuid_trx', '>', after).orderBy('uuid_trx').limit(batchSize).execute();
    if (rows.length === 0) break;
    const uuids = rows.map((r) => r.uuid_trx);
    await fold(db, grantorId, uuids, []);
    folded += uuids.length;
    after = uuids[uuids.length - 1]!;
  }
  await db
    .insertInto('console_funnel_grantors')
    .values({ grantor_id: grantorId, backfilled_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('grantor_id').doNothing())
    .execute();
  return folded;
}

/**
 * Brings the grantor's daily aggregate up to date: the first time every transaction, then the marked ones. Returns
 * how many transactions were folded.
 */
export async function refreshFunnelAggregate(db: Db, grantorId: string): Promise<number> {
  const done = await db.selectFrom('console_funnel_grantors').select('grantor_id').where('grantor_id', '=', grantorId).executeTakeFirst();
  let folded = done ? 0 : await backfill(db, grantorId);
  let after = '';
  for (;;) {
    const marks = await db
      .selectFrom('console_funnel_dirty')
      .select(['uuid_trx', 'token'])
      .where('grantor_id', '=', grantorId)
      .where('uuid_trx', '>', after)
      .orderBy('uuid_trx')
      .limit(batchSize)
      .execute();
    if (marks.length === 0) break;
    const uuids = marks.map((m) => m.uuid_trx);
    await fold(db, grantorId, uuids, marks);
    folded += uuids.length;
    after = uuids[uuids.length - 1]!;
  }
  return folded;
}
