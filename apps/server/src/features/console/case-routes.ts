import { consoleCase, consoleCasePage, consoleCaseQuery, consoleGrantors, consolePaths } from '@kyc/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { listGrantors } from '../../store/grantors.js';
import { listCases, scoreFinishedCases, type CaseStatus } from './cases.js';
import { grantorOf, type ConsoleKit } from './kit.js';
import * as store from './store.js';

/** A query string date (YYYY-MM-DD) as the start of that day in UTC; `dayAfter` for an inclusive upper bound. */
function dayStart(day: string, dayAfter = false): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) throw new HttpError(400, `Invalid request: ${day} is not a date`);
  if (dayAfter) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

function encodeCursor(cursor: { createdAt: string; uuidTrx: string } | undefined): string | null {
  return cursor ? Buffer.from(JSON.stringify([cursor.createdAt, cursor.uuidTrx])).toString('base64url') : null;
}

function decodeCursor(text: string | undefined): { createdAt: string; uuidTrx: string } | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { createdAt: value[0], uuidTrx: value[1] };
  } catch {
    // falls through
  }
  throw new HttpError(400, 'Invalid request: query parameter cursor is not one this service issued');
}

export { grantorOf };

type CaseQuery = z.infer<typeof consoleCaseQuery>;

/** The filters are audited, not the search text: it may be a CURP or a name. */
function listedDetail(query: CaseQuery, shown: { uuidTrx: string }[]) {
  return {
    status: query.status ?? null,
    from: query.from ?? null,
    to: query.to ?? null,
    searched: Boolean(query.q?.trim()),
    page: Boolean(query.cursor),
    shown: shown.map((c) => c.uuidTrx),
  };
}

/** The grantors a user may look at, the case list and one case's row. */
export function registerCaseRoutes(app: ZodApp, kit: ConsoleKit): void {
  const { db, cipher, config, errors, hidden } = kit;
  const abandonAfterMs = config.abandonAfterMinutes * 60_000;

  app.get(consolePaths.grantors, { schema: { ...hidden, response: { 200: consoleGrantors, ...errors } } }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply);
    const all = await listGrantors(db);
    const visible = user.role === 'operator' ? all : all.filter((g) => g.id === user.grantorId);
    return { grantors: visible.map((g) => ({ id: g.id, name: g.name })) };
  });

  async function listPage(request: FastifyRequest, user: store.ConsoleUser, query: CaseQuery) {
    const grantorId = grantorOf(user, query.grantorId);
    await scoreFinishedCases(kit, grantorId);
    const page = await listCases(db, cipher, {
      grantorId,
      status: query.status as CaseStatus | undefined,
      from: query.from ? dayStart(query.from) : undefined,
      to: query.to ? dayStart(query.to, true) : undefined,
      q: query.q,
      cursor: decodeCursor(query.cursor),
      limit: query.limit,
      abandonAfterMs,
    });
    await store.audit(db, { action: 'cases_listed', userId: user.id, grantorId, ip: request.ip, detail: listedDetail(query, page.cases) });
    return { cases: page.cases, nextCursor: encodeCursor(page.next) };
  }

  app.get(consolePaths.cases, { schema: { ...hidden, querystring: consoleCaseQuery, response: { 200: consoleCasePage, ...errors } } }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply);
    return listPage(request, user, request.query);
  });

  const caseSchema = { ...hidden, params: z.object({ uuidTrx: z.string().max(64) }), querystring: z.object({ grantorId: z.string().max(100).optional() }), response: { 200: consoleCase, ...errors } };
  app.get(consolePaths.case, { schema: caseSchema }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply);
    const grantorId = grantorOf(user, request.query.grantorId);
    const uuidTrx = request.params.uuidTrx.toLowerCase();
    const page = await listCases(db, cipher, { grantorId, q: undefined, limit: 1, abandonAfterMs, cursor: undefined, only: uuidTrx });
    const found = page.cases.find((c) => c.uuidTrx === uuidTrx);
    await store.audit(db, { action: found ? 'case_viewed' : 'case_refused', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx } });
    // Another grantor's case answers exactly like a missing one.
    if (!found) throw new HttpError(404, 'Case not found', 'No encontramos ese expediente.');
    return found;
  });
}
