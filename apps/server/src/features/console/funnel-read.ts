import type { ConsoleFunnel } from '@kyc/contracts';
import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import { funnelFinishedOrd, funnelOpenedOrd, shapeFunnel, type FunnelQuery, type FunnelStepFigures } from './funnel.js';
import type {} from './tables.js';

const dayMs = 86_400_000;

interface Totals {
  reached: number;
  stopped: number;
  hist: Map<number, number>;
}

function totalsOf(byOrd: Map<number, Totals>, ord: number): Totals {
  const found = byOrd.get(ord);
  if (found) return found;
  const totals: Totals = { reached: 0, stopped: 0, hist: new Map() };
  byOrd.set(ord, totals);
  return totals;
}

const addCount = (hist: Map<number, number>, bucket: number, n: number) => hist.set(bucket, (hist.get(bucket) ?? 0) + n);

/** The whole UTC days inside [from, to) (as YYYY-MM-DD, end exclusive) and the partial edges left around them. */
export function splitRange(from: string, to: string): { days: [string, string] | null; edges: [string, string][] } {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const firstDay = Math.ceil(start / dayMs) * dayMs;
  const lastDay = Math.floor(end / dayMs) * dayMs;
  if (firstDay >= lastDay) return { days: null, edges: [[from, to]] };
  const iso = (ms: number) => new Date(ms).toISOString();
  const edges: [string, string][] = [];
  if (start < firstDay) edges.push([from, iso(firstDay)]);
  if (lastDay < end) edges.push([iso(lastDay), to]);
  return { days: [iso(firstDay).slice(0, 10), iso(lastDay).slice(0, 10)], edges };
}

/** Sums the day rows of the whole days, then the per-transaction rows of the partial edges. */
async function sumRange(db: Db, grantorId: string, from: string, to: string): Promise<Map<number, Totals>> {
  const byOrd = new Map<number, Totals>();
  const { days, edges } = splitRange(from, to);
  if (days) {
    const rows = await db
      .selectFrom('console_funnel_days')
      .select(['ord', 'reached', 'stopped', 'hist'])
      .where('grantor_id', '=', grantorId)
      .where('day', '>=', days[0])
      .where('day', '<', days[1])
      .execute();
    for (const row of rows) {
      const totals = totalsOf(byOrd, Number(row.ord));
      totals.reached += Number(row.reached);
      totals.stopped += Number(row.stopped);
      for (const [bucket, n] of Object.entries(JSON.parse(row.hist) as Record<string, number>)) addCount(totals.hist, Number(bucket), n);
    }
  }
  for (const [a, b] of edges) {
    const rows = await db
      .selectFrom('console_funnel_steps')
      .select((eb) => ['ord', 'bucket', 'last', eb.fn.countAll<number | string>().as('n')])
      .where('grantor_id', '=', grantorId)
      .where('created_at', '>=', a)
      .where('created_at', '<', b)
      .groupBy(['ord', 'bucket', 'last'])
      .execute();
    for (const row of rows) {
      const ord = Number(row.ord);
      const n = Number(row.n);
      const totals = totalsOf(byOrd, ord);
      totals.reached += n;
      if (Number(row.last) === 1 && ord !== funnelFinishedOrd) totals.stopped += n;
      if (row.bucket !== null) addCount(totals.hist, Number(row.bucket), n);
    }
  }
  return byOrd;
}

/**
 * Transactions of the range still in progress, by their furthest step: not cancelled and active since `quietSince`
 * (few: only the last minutes' transactions), read through the transactions' (grantor, updated_at) index.
 */
async function inProgressByOrd(db: Db, query: FunnelQuery, quietSince: string): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('transactions as t')
    .innerJoin('console_funnel_steps as s', (join) => join.onRef('s.uuid_trx', '=', 't.uuid_trx').on('s.last', '=', 1))
    .select((eb) => ['s.ord', eb.fn.countAll<number | string>().as('n')])
    .where('t.grantor_id', '=', query.grantorId)
    .where('t.updated_at', '>=', quietSince)
    .where('t.cancelled_at', 'is', null)
    // `created_at || ''`: not the (grantor, created_at) index, which SQLite (no statistics) would otherwise prefer and
    // then visit every transaction of the range; the (grantor, updated_at) range holds only the last minutes' ones.
    .where(sql<string>`t.created_at || ''`, '>=', query.from)
    .where(sql<string>`t.created_at || ''`, '<', query.to)
    .where('s.ord', '<>', funnelFinishedOrd)
    .groupBy('s.ord')
    .execute();
  return new Map(rows.map((r) => [Number(r.ord), Number(r.n)]));
}

/** The bucket holding the k-th smallest duration (1-based) and how many smaller ones that bucket holds. */
function locate(hist: Map<number, number>, k: number): { bucket: number; offset: number } {
  let seen = 0;
  for (const [bucket, n] of [...hist].sort((a, b) => a[0] - b[0])) {
    if (seen + n >= k) return { bucket, offset: k - seen - 1 };
    seen += n;
  }
  throw new Error('rank beyond the histogram');
}

/** The 1-based ranks of a step's middle value(s): one when the count is odd, two when even (their mean is the median). */
const middleRanks = (n: number) => [...new Set([Math.floor((n + 1) / 2), Math.floor((n + 2) / 2)])];

/**
 * The exact median of each step's durations: the summed histogram says which bucket holds the middle value(s) and at
 * which rank inside it; each of those values is read from its bucket's rows of the range in order, through the
 * (grantor, ord, bucket, ms) index, all of them in one statement.
 */
async function mediansOf(db: Db, query: FunnelQuery, hists: Map<number, Map<number, number>>): Promise<Map<number, number>> {
  const lookups: { ord: number; bucket: number; offset: number }[] = [];
  for (const [ord, hist] of hists) {
    const n = [...hist.values()].reduce((a, b) => a + b, 0);
    if (n > 0) for (const k of middleRanks(n)) lookups.push({ ord, ...locate(hist, k) });
  }
  if (lookups.length === 0) return new Map();
  const parts = lookups.map(
    (l, i) => sql`select * from (select ${sql.lit(i)} as i, s.ms from console_funnel_steps s
      where s.grantor_id = ${query.grantorId} and s.ord = ${l.ord} and s.bucket = ${l.bucket} and s.created_at >= ${query.from} and s.created_at < ${query.to}
      order by s.ms limit 1 offset ${l.offset}) ${sql.raw(`q${i}`)}`,
  );
  const { rows } = await sql<{ i: number | string; ms: number | string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  if (rows.length !== lookups.length) throw new Error('the funnel aggregate and its steps disagree');
  const sums = new Map<number, number[]>();
  for (const row of rows) {
    const ord = lookups[Number(row.i)]!.ord;
    sums.set(ord, [...(sums.get(ord) ?? []), Number(row.ms)]);
  }
  return new Map([...sums].map(([ord, values]) => [ord, values.reduce((a, b) => a + b, 0) / values.length]));
}

/**
 * The funnel of funnel.ts computeFunnel, read from the daily aggregate: the whole UTC days from console_funnel_days,
 * the partial days at the edges of the range from the per-transaction rows, the in-progress count from the recently
 * active transactions, and the exact medians from one bucket each. Call refreshFunnelAggregate first.
 */
export async function readFunnel(db: Db, query: FunnelQuery, now: Date = new Date()): Promise<Omit<ConsoleFunnel, 'pendingEvents'>> {
  const quietSince = new Date(now.getTime() - query.abandonAfterMs).toISOString();
  const totals = await sumRange(db, query.grantorId, query.from, query.to);
  const active = await inProgressByOrd(db, query, quietSince);
  const medians = await mediansOf(db, query, new Map([...totals].filter(([ord]) => ord !== funnelOpenedOrd).map(([ord, t]) => [ord, t.hist])));
  const figures = new Map<number, FunnelStepFigures>();
  for (const [ord, t] of totals) {
    if (t.reached === 0) continue;
    figures.set(ord, { reached: t.reached, stopped: t.stopped, abandoned: t.stopped - (active.get(ord) ?? 0), medianMs: medians.get(ord) ?? null });
  }
  return shapeFunnel(query, figures);
}
