import type { ConsoleFunnel } from '@kyc/contracts';
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
    .where('t.created_at', '>=', query.from)
    .where('t.created_at', '<', query.to)
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

/**
 * The exact median of a step's durations: the summed histogram says which bucket holds the middle value(s) and at
 * which rank inside it; that bucket's rows of the range are read in order from the (grantor, ord, bucket, ms) index.
 */
async function medianOf(db: Db, query: FunnelQuery, ord: number, hist: Map<number, number>): Promise<number | null> {
  const n = [...hist.values()].reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const ranks = [...new Set([Math.floor((n + 1) / 2), Math.floor((n + 2) / 2)])];
  const values: number[] = [];
  for (const k of ranks) {
    const { bucket, offset } = locate(hist, k);
    const row = await db
      .selectFrom('console_funnel_steps')
      .select('ms')
      .where('grantor_id', '=', query.grantorId)
      .where('ord', '=', ord)
      .where('bucket', '=', bucket)
      .where('created_at', '>=', query.from)
      .where('created_at', '<', query.to)
      .orderBy('ms')
      .limit(1)
      .offset(offset)
      .executeTakeFirst();
    if (row?.ms === null || row?.ms === undefined) throw new Error('the funnel aggregate and its steps disagree');
    values.push(Number(row.ms));
  }
  return values.reduce((a, b) => a + b, 0) / values.length;
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
  const figures = new Map<number, FunnelStepFigures>();
  for (const [ord, t] of totals) {
    if (t.reached === 0) continue;
    const medianMs = ord === funnelOpenedOrd ? null : await medianOf(db, query, ord, t.hist);
    figures.set(ord, { reached: t.reached, stopped: t.stopped, abandoned: t.stopped - (active.get(ord) ?? 0), medianMs });
  }
  return shapeFunnel(query, figures);
}
