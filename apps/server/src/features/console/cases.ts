import type { AppCaches } from '../../caches.js';
import type { Deps } from '../../deps.js';
import type { ExpressionBuilder } from 'kysely';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { ownerParams } from '../../domain/grantor-params.js';
import type { Db } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import { findGrantorById, readStoredParams } from '../../store/grantors.js';
import { scoreOf } from '../results/facts.js';
import type {} from '../results/tables.js';
import { blindTerm, caseNameContext, nameWords, normaliseCurpTerm, recordCaseFlag } from './case-index.js';
import type {} from './tables.js';

/** What the list says of a case. GREEN / YELLOW / RED are scored and not reviewed yet. */
export const caseStatuses = ['in_progress', 'abandoned', 'finished', 'GREEN', 'YELLOW', 'RED', 'reviewed', 'redo_requested'] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export interface CaseRow {
  uuidTrx: string;
  createdAt: string;
  updatedAt: string;
  status: CaseStatus;
  /** The step the case was at when it went quiet (abandoned) or is at now. */
  step: string | null;
  /** Never shown while the person's data are blocked (a data-subject request): `blocked` says so instead. */
  holderName: string | null;
  blocked: boolean;
  review: { decision: 'approve' | 'reject'; reason: string } | null;
}

export interface CaseQuery {
  grantorId: string;
  status?: CaseStatus | undefined;
  /** ISO date-times: created_at >= from, created_at < to. */
  from?: string | undefined;
  to?: string | undefined;
  /** Folio prefix, CURP or name words. */
  q?: string | undefined;
  cursor?: { createdAt: string; uuidTrx: string } | undefined;
  /** One transaction id (the case view). */
  only?: string | undefined;
  limit: number;
  abandonAfterMs: number;
}

type Eb = ExpressionBuilder<Database & { t: Database['transactions']; c: Database['console_cases']; o: Database['transaction_outcomes'] }, 't' | 'c' | 'o'>;

function statusCondition(eb: Eb, status: CaseStatus, quietSince: string) {
  switch (status) {
    case 'GREEN':
    case 'YELLOW':
    case 'RED':
      return eb.and([eb('c.flag', '=', status), eb('c.review_decision', 'is', null)]);
    case 'reviewed':
      return eb('c.review_decision', 'in', ['approve', 'reject']);
    case 'redo_requested':
      return eb('c.review_decision', '=', 'redo');
    case 'finished':
      return eb.and([eb('o.uuid_trx', 'is not', null), eb('c.flag', 'is', null)]);
    case 'abandoned':
      return eb.and([eb('o.uuid_trx', 'is', null), eb('t.updated_at', '<', quietSince)]);
    case 'in_progress':
      return eb.and([eb('o.uuid_trx', 'is', null), eb('t.updated_at', '>=', quietSince)]);
  }
}

/**
 * The transactions carrying a blind-index term, as `uuid_trx in (…)`: uncorrelated, so the terms are read once by
 * their index and each transaction of the page is probed against that set (a correlated EXISTS probed the terms'
 * index once per transaction of the grantor: 230 ms of CPU for a CURP among 100,000 cases on SQLite, bench 'console').
 */
function hasTerm(eb: Eb, cipher: DataCipher, grantorId: string, kind: 'curp' | 'name', term: string) {
  return eb(
    't.uuid_trx',
    'in',
    eb
      .selectFrom('console_search_terms as s')
      .select('s.uuid_trx')
      .where('s.grantor_id', '=', grantorId)
      .where('s.kind', '=', kind)
      .where('s.term_hmac', '=', blindTerm(cipher, grantorId, kind, term)),
  );
}

/** Up to this many matches of a CURP or name are listed by id; more are left to the ordered scan, which stops early. */
const matchListCap = 1000;

interface TermMatches {
  /** The transactions whose CURP term matches (ids), or 'many'; undefined when the text is not a CURP. */
  curp?: string[] | 'many';
  /** The transactions carrying every word of the name (ids), or 'many'; undefined when the text has no word. */
  name?: string[] | 'many';
}

/**
 * The blind-index matches of the search text, read first: a CURP or an uncommon name matches a few transactions, which
 * the page then fetches by id (both engines use the primary key and sort the few rows), instead of walking the grantor's
 * transactions in date order testing each against the terms (PostgreSQL took 0.5 s for a CURP among 100,000 cases).
 */
async function termMatches(db: Db, cipher: DataCipher, grantorId: string, q: string): Promise<TermMatches> {
  const text = q.trim();
  const matches: TermMatches = {};
  const curp = normaliseCurpTerm(text);
  if (/^[A-Z]{4}\d{6}[A-Z0-9]{8}$/.test(curp)) {
    const rows = await db
      .selectFrom('console_search_terms')
      .select('uuid_trx')
      .where('grantor_id', '=', grantorId)
      .where('kind', '=', 'curp')
      .where('term_hmac', '=', blindTerm(cipher, grantorId, 'curp', curp))
      .limit(matchListCap + 1)
      .execute();
    matches.curp = rows.length > matchListCap ? 'many' : rows.map((r) => r.uuid_trx);
  }
  const words = nameWords(text);
  if (words.length > 0) {
    const hmacs = [...new Set(words.map((w) => blindTerm(cipher, grantorId, 'name', w)))];
    const rows = await db
      .selectFrom('console_search_terms')
      .select('uuid_trx')
      .where('grantor_id', '=', grantorId)
      .where('kind', '=', 'name')
      .where('term_hmac', 'in', hmacs)
      .groupBy('uuid_trx')
      .having((eb) => eb.fn.countAll(), '=', hmacs.length)
      .limit(matchListCap + 1)
      .execute();
    matches.name = rows.length > matchListCap ? 'many' : rows.map((r) => r.uuid_trx);
  }
  return matches;
}

/** The search box: a folio prefix, a CURP or words of the name; a text that could be several is tried as each. */
function searchCondition(eb: Eb, cipher: DataCipher, grantorId: string, q: string, matches: TermMatches) {
  const text = q.trim();
  const options = [];
  const folio = text.toLowerCase();
  if (/^[0-9a-f-]{4,36}$/.test(folio)) options.push(eb('t.uuid_trx', 'like', `${folio.replace(/[%_]/g, '')}%`));
  const byIds = (ids: string[]) => (ids.length > 0 ? eb('t.uuid_trx', 'in', ids) : eb.lit(false));
  if (matches.curp === 'many') options.push(hasTerm(eb, cipher, grantorId, 'curp', normaliseCurpTerm(text)));
  else if (matches.curp) options.push(byIds(matches.curp));
  if (matches.name === 'many') options.push(eb.and(nameWords(text).map((w) => hasTerm(eb, cipher, grantorId, 'name', w))));
  else if (matches.name) options.push(byIds(matches.name));
  return options.length > 0 ? eb.or(options) : eb.lit(false);
}

function rowStatus(row: { flag: string | null; review_decision: string | null; finished: string | null; updated_at: string }, quietSince: string): CaseStatus {
  if (row.review_decision === 'redo') return 'redo_requested';
  if (row.review_decision !== null) return 'reviewed';
  if (row.flag === 'GREEN' || row.flag === 'YELLOW' || row.flag === 'RED') return row.flag;
  if (row.finished !== null) return 'finished';
  return row.updated_at < quietSince ? 'abandoned' : 'in_progress';
}

/**
 * Per database and grantor, a time before which every finished case was found flagged (in this process): the list's
 * look for unscored cases then reads the outcomes' finish-time index from there instead of every finished case of the
 * grantor (160 ms of CPU a list request at 100,000 cases on SQLite, bench 'console'). A new process looks once in full.
 * Kept in the app's caches.
 */
const scoredMarginMs = 10 * 60_000;
function scoredThrough(caches: AppCaches): Map<string, string> {
  return caches.slot('console.scoredThrough', () => new Map<string, string>());
}

/**
 * Scores the grantor's finished cases that have no flag yet (as of when they finished), so that the status
 * filter sees them. Bounded per call; in steady state only the cases finished since the last look are scored.
 */
export async function scoreFinishedCases(deps: Pick<Deps, 'db' | 'cipher' | 'caches'>, grantorId: string, max = 50, now: Date = new Date()): Promise<number> {
  const { db, cipher, caches } = deps;
  const since = scoredThrough(caches).get(grantorId);
  let pending: { uuid_trx: string; finished_at: string }[];
  let caughtUp: boolean;
  if (since) {
    // Driven by the finish-time index: every grantor's unscored finishes since then (few), this grantor's kept. The
    // grantor is not in the WHERE, or SQLite (no statistics) would scan the grantor's transactions again.
    const window = 500;
    const recent = await db
      .selectFrom('transaction_outcomes as o')
      .innerJoin('transactions as t', 't.uuid_trx', 'o.uuid_trx')
      .leftJoin('console_cases as c', 'c.uuid_trx', 'o.uuid_trx')
      .select(['o.uuid_trx', 'o.finished_at', 't.grantor_id'])
      .where('o.finished_at', '>=', since)
      .where('c.flag', 'is', null)
      .limit(window)
      .execute();
    const mine = recent.filter((r) => r.grantor_id === grantorId);
    pending = mine.slice(0, max);
    caughtUp = recent.length < window && mine.length < max;
  } else {
    pending = await db
      .selectFrom('transactions as t')
      .innerJoin('transaction_outcomes as o', 'o.uuid_trx', 't.uuid_trx')
      .leftJoin('console_cases as c', 'c.uuid_trx', 't.uuid_trx')
      .select(['t.uuid_trx', 'o.finished_at'])
      .where('t.grantor_id', '=', grantorId)
      .where('c.flag', 'is', null)
      .limit(max)
      .execute();
    caughtUp = pending.length < max;
  }
  // Caught up: later looks read only the cases finished since (minus a margin for a finish still being committed).
  if (caughtUp) scoredThrough(caches).set(grantorId, new Date(now.getTime() - scoredMarginMs).toISOString());
  if (pending.length === 0) return 0;
  const grantor = await findGrantorById(db, grantorId);
  if (!grantor) return 0;
  const params = ownerParams(grantor, await readStoredParams(deps, grantorId), '');
  for (const row of pending) {
    const result = await scoreOf(db, cipher, row.uuid_trx, params, new Date(row.finished_at));
    await recordCaseFlag(db, { uuidTrx: row.uuid_trx, grantorId, flag: result.flag });
  }
  return pending.length;
}

/** One page of the grantor's cases, newest first, keyset-paginated by (created_at, uuid_trx). */
export async function listCases(db: Db, cipher: DataCipher, query: CaseQuery, now: Date = new Date()): Promise<{ cases: CaseRow[]; next: CaseQuery['cursor'] }> {
  const quietSince = new Date(now.getTime() - query.abandonAfterMs).toISOString();
  let select = db
    .selectFrom('transactions as t')
    .leftJoin('console_cases as c', 'c.uuid_trx', 't.uuid_trx')
    .leftJoin('transaction_outcomes as o', 'o.uuid_trx', 't.uuid_trx')
    .select(['t.uuid_trx', 't.created_at', 't.updated_at', 't.current_step', 'c.holder_name_enc', 'c.flag', 'c.review_decision', 'c.review_reason', 'o.finished_at as finished', 't.restricted_at'])
    .where('t.grantor_id', '=', query.grantorId);
  if (query.only) select = select.where('t.uuid_trx', '=', query.only);
  if (query.from) select = select.where('t.created_at', '>=', query.from);
  if (query.to) select = select.where('t.created_at', '<', query.to);
  if (query.status) {
    const status = query.status;
    select = select.where((eb) => statusCondition(eb as Eb, status, quietSince));
  }
  if (query.q?.trim()) {
    const q = query.q;
    const matches = await termMatches(db, cipher, query.grantorId, q);
    // A blocked person's data are not processed: their name or CURP finds nothing.
    select = select.where((eb) => searchCondition(eb as Eb, cipher, query.grantorId, q, matches)).where('t.restricted_at', 'is', null);
  }
  if (query.cursor) {
    const { createdAt, uuidTrx } = query.cursor;
    select = select.where((eb) => eb.or([eb('t.created_at', '<', createdAt), eb.and([eb('t.created_at', '=', createdAt), eb('t.uuid_trx', '<', uuidTrx)])]));
  }
  const rows = await select
    .orderBy('t.created_at', 'desc')
    .orderBy('t.uuid_trx', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    cases: page.map((row) => ({
      uuidTrx: row.uuid_trx,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      status: rowStatus(row, quietSince),
      step: row.current_step,
      blocked: row.restricted_at !== null,
      holderName: row.holder_name_enc && row.restricted_at === null ? cipher.decrypt(row.holder_name_enc, caseNameContext(row.uuid_trx)) : null,
      review: row.review_decision === 'approve' || row.review_decision === 'reject' ? { decision: row.review_decision, reason: row.review_reason ?? '' } : null,
    })),
    next: rows.length > query.limit && last ? { createdAt: last.created_at, uuidTrx: last.uuid_trx } : undefined,
  };
}
