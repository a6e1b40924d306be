import { consoleFunnelStepLabels, consoleFunnelSteps, consoleOptionalFunnelSteps, type ConsoleFunnel, type ConsoleFunnelStep } from '@kyc/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { isPostgres, type Db } from '../../store/db.js';
import { markFunnelDirty } from '../../store/funnel-marks.js';
import { lifecycleStatusOf } from '../events/lifecycle.js';
import { lifecycleContext } from '../events/store.js';

/** The lifecycle step each funnel step is (the flow's `step` of update_cycle); `opened` and `video` come from elsewhere. */
const lifecycleSteps = consoleFunnelSteps.filter((s) => s !== 'opened' && s !== 'video');
const finishedStep: ConsoleFunnelStep = 'finished';
const ordOf = (step: ConsoleFunnelStep) => consoleFunnelSteps.indexOf(step);

export interface FunnelQuery {
  grantorId: string;
  /** ISO date-times: transactions created at or after `from` and before `to`. */
  from: string;
  to: string;
  abandonAfterMs: number;
}

/** Milliseconds from `a` to `b` (ISO-8601 text columns), per engine. */
function millisBetween(db: Db, a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`(extract(epoch from (${b}::timestamptz - ${a}::timestamptz)) * 1000)` : sql<number>`((julianday(${b}) - julianday(${a})) * 86400000.0)`;
}

/**
 * Fills the status of lifecycle events stored before migration 0027 (decrypting their payload), at most `max` per
 * call, like the list's flags; returns how many of the grantor's events still have none.
 */
export async function fillLifecycleStatuses(db: Db, cipher: DataCipher, grantorId: string, max = 2000): Promise<number> {
  const rows = await db.selectFrom('lifecycle_events').select(['id', 'uuid_trx', 'payload_enc']).where('grantor_id', '=', grantorId).where('status', 'is', null).limit(max).execute();
  if (rows.length === 0) return 0;
  await db.transaction().execute(async (tx) => {
    for (const row of rows) {
      let status = 'OTHER';
      try {
        status = lifecycleStatusOf(JSON.parse(cipher.decrypt(row.payload_enc, lifecycleContext(row.uuid_trx, row.id))));
      } catch {
        // An unreadable payload is still an event: counted as OTHER, never as a step completed.
      }
      await tx.updateTable('lifecycle_events').set({ status }).where('id', '=', row.id).execute();
    }
    // A status just read may complete a step: the daily aggregate folds these transactions again.
    for (const uuidTrx of new Set(rows.map((r) => r.uuid_trx))) await markFunnelDirty(tx, uuidTrx, grantorId);
  });
  if (rows.length < max) return 0;
  const left = await db
    .selectFrom('lifecycle_events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('grantor_id', '=', grantorId)
    .where('status', 'is', null)
    .executeTakeFirst();
  return Number(left?.n ?? 0);
}

interface FunnelRow {
  ord: number | string;
  reached: number | string;
  stopped: number | string | null;
  abandoned: number | string | null;
  median_ms: number | string | null;
}

/**
 * The steps each transaction of a cohort reached, as one `reached (uuid_trx, ord, at)` common table over a `cohort
 * (uuid_trx, …)` one: its opening, the first OK lifecycle event of each step (the end with any status) and the first
 * face-video decision. Shared by the funnel below and the daily aggregate (funnel-aggregate.ts), so both count alike.
 */
export function reachedCte(): RawBuilder<unknown> {
  const ordCase = sql.join(
    lifecycleSteps.map((s) => sql`when ${s} then ${sql.lit(ordOf(s))}`),
    sql` `,
  );
  return sql`reached as (
      select c.uuid_trx, ${sql.lit(ordOf('opened'))} as ord, c.created_at as at from cohort c
      union all
      select le.uuid_trx, case le.step ${ordCase} end as ord, min(le.received_at) as at
      from cohort c join lifecycle_events le on le.uuid_trx = c.uuid_trx
      where le.step in (${sql.join(lifecycleSteps)}) and (le.status = 'OK' or le.step = ${finishedStep})
      group by le.uuid_trx, le.step
      union all
      select e.uuid_trx, ${sql.lit(ordOf('video'))} as ord, min(e.created_at) as at
      from cohort c join evidence e on e.uuid_trx = c.uuid_trx
      where e.kind = ${evidenceKind.videoToken}
      group by e.uuid_trx
    )`;
}

export const funnelFinishedOrd = ordOf(finishedStep);
export const funnelOpenedOrd = ordOf('opened');

/** One step's figures before shaping: reached, stopped there (furthest step, not the end), of those abandoned, the median. */
export interface FunnelStepFigures {
  reached: number;
  stopped: number;
  abandoned: number;
  medianMs: number | null;
}

/**
 * The funnel of the transactions a grantor's customers opened in a date range, aggregated in the database (one
 * statement, the same on SQLite and PostgreSQL but for the date difference): for each step how many reached it, how
 * many stopped there (furthest step reached, quiet or cancelled) or are still at it, and the median time from the
 * previous step reached. The median is taken with window functions (row_number / count over the step), so no
 * per-transaction row leaves the database. This is the definition the daily aggregate (funnel-aggregate.ts) is
 * checked against; the console's route reads the aggregate. See docs/decisions.md "The console's funnel".
 */
export async function computeFunnel(db: Db, query: FunnelQuery, now: Date = new Date()): Promise<Omit<ConsoleFunnel, 'pendingEvents'>> {
  const quietSince = new Date(now.getTime() - query.abandonAfterMs).toISOString();
  const finishedOrd = sql.lit(ordOf(finishedStep));
  const ms = millisBetween(db, sql.ref('prev_at'), sql.ref('at'));
  const result = await sql<FunnelRow>`
    with cohort as (
      select t.uuid_trx, t.created_at, t.updated_at, t.cancelled_at
      from transactions t
      where t.grantor_id = ${query.grantorId} and t.created_at >= ${query.from} and t.created_at < ${query.to}
    ),
    ${reachedCte()},
    furthest as (
      select r.uuid_trx, max(r.ord) as ord from reached r group by r.uuid_trx
    ),
    stops as (
      select f.ord,
        count(*) as stopped,
        sum(case when c.cancelled_at is not null or c.updated_at < ${quietSince} then 1 else 0 end) as abandoned
      from furthest f join cohort c on c.uuid_trx = f.uuid_trx
      where f.ord <> ${finishedOrd}
      group by f.ord
    ),
    counts as (
      select r.ord, count(*) as reached from reached r group by r.ord
    ),
    timed as (
      select r.ord, r.at, lag(r.at) over (partition by r.uuid_trx order by r.ord) as prev_at from reached r
    ),
    durations as (
      select t.ord, case when ${ms} < 0 then 0 else ${ms} end as ms from timed t where t.prev_at is not null
    ),
    ranked as (
      select d.ord, d.ms, row_number() over (partition by d.ord order by d.ms) as rn, count(*) over (partition by d.ord) as n from durations d
    ),
    medians as (
      select k.ord, avg(k.ms) as median_ms from ranked k where k.rn in ((k.n + 1) / 2, (k.n + 2) / 2) group by k.ord
    )
    select counts.ord, counts.reached, stops.stopped, stops.abandoned, medians.median_ms
    from counts
    left join stops on stops.ord = counts.ord
    left join medians on medians.ord = counts.ord
    order by counts.ord
  `.execute(db);
  const figures = new Map<number, FunnelStepFigures>(
    result.rows.map((r) => [
      Number(r.ord),
      {
        reached: Number(r.reached),
        stopped: Number(r.stopped ?? 0),
        abandoned: Number(r.abandoned ?? 0),
        medianMs: r.median_ms === null || r.median_ms === undefined ? null : Number(r.median_ms),
      },
    ]),
  );
  return shapeFunnel(query, figures);
}

/** The answer from each step's figures (by the step's index in consoleFunnelSteps): shown steps, conversions, totals. */
export function shapeFunnel(query: Pick<FunnelQuery, 'from' | 'to'>, byOrd: Map<number, FunnelStepFigures>): Omit<ConsoleFunnel, 'pendingEvents'> {
  const transactions = byOrd.get(ordOf('opened'))?.reached ?? 0;
  const finished = byOrd.get(ordOf(finishedStep))?.reached ?? 0;
  const shown = consoleFunnelSteps.filter((step) => !consoleOptionalFunnelSteps.includes(step) || (byOrd.get(ordOf(step))?.reached ?? 0) > 0);
  let previous: number | undefined;
  let abandoned = 0;
  let stoppedTotal = 0;
  const steps = shown.map((step) => {
    const row = byOrd.get(ordOf(step));
    const reached = row?.reached ?? 0;
    const stopped = row?.stopped ?? 0;
    const stoppedHere = row?.abandoned ?? 0;
    abandoned += stoppedHere;
    stoppedTotal += stopped;
    const conversion = previous === undefined ? 1 : previous === 0 ? null : reached / previous;
    previous = reached;
    const median = row?.medianMs;
    return {
      step,
      label: consoleFunnelStepLabels[step],
      reached,
      conversion,
      stoppedHere,
      inProgressHere: stopped - stoppedHere,
      medianMs: step === 'opened' || median === null || median === undefined ? null : Math.round(median),
    };
  });
  // A step hidden (optional, nobody reached it) has no stops either: every stop is at a step someone reached.
  return { from: query.from, to: query.to, transactions, finished, abandoned, inProgress: stoppedTotal - abandoned, steps };
}
