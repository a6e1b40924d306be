import { consoleFunnel, consoleFunnelQuery, consoleInsightPaths } from '@kyc/contracts';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { fillLifecycleStatuses } from './funnel.js';
import { refreshFunnelAggregate } from './funnel-aggregate.js';
import { readFunnel } from './funnel-read.js';
import type { ConsoleRouteHelpers } from './route-helpers.js';
import * as store from './store.js';

const dayMs = 86_400_000;
/** The longest range one funnel covers: a year (the query reads every transaction of the range). */
const maxRangeDays = 366;
const defaultRangeDays = 30;

function day(text: string): Date {
  const date = new Date(`${text}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) throw new HttpError(400, `Invalid request: ${text} is not a date`);
  return date;
}

/**
 * The funnel of the grantor's transactions created in a date range (issue #16): every staff role of the grantor, a
 * platform operator for the grantor chosen. Aggregated in the database (features/console/funnel.ts); audited.
 */
export function registerFunnelRoutes(app: ZodApp, { db, cipher }: Pick<Deps, 'db' | 'cipher'>, helpers: ConsoleRouteHelpers): void {
  const { requireSession, touch, noStore, errors, grantorOf, abandonAfterMs } = helpers;

  app.get(consoleInsightPaths.funnel, { schema: { hide: true, querystring: consoleFunnelQuery, response: { 200: consoleFunnel, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await touch(session);
    const grantorId = grantorOf(user, request.query.grantorId);
    const now = new Date();
    const to = request.query.to ? day(request.query.to) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const from = request.query.from ? day(request.query.from) : new Date(to.getTime() - (defaultRangeDays - 1) * dayMs);
    const end = new Date(to.getTime() + dayMs);
    if (from.getTime() > to.getTime()) throw new HttpError(400, 'Invalid request: from is after to', 'La fecha inicial debe ser anterior a la final.');
    if ((end.getTime() - from.getTime()) / dayMs > maxRangeDays) {
      throw new HttpError(400, `Invalid request: the range is longer than ${maxRangeDays} days`, `Elige un periodo de ${maxRangeDays} días o menos.`);
    }
    // Events stored before their status was kept in clear are read once, a bounded batch per request.
    const pendingEvents = await fillLifecycleStatuses(db, cipher, grantorId);
    // The daily aggregate folds what changed since the last request (the first one backfills), then answers.
    await refreshFunnelAggregate(db, grantorId);
    const funnel = await readFunnel(db, { grantorId, from: from.toISOString(), to: end.toISOString(), abandonAfterMs }, now);
    await store.audit(db, {
      action: 'funnel_viewed',
      userId: user.id,
      grantorId,
      ip: request.ip,
      detail: { from: funnel.from, to: funnel.to, transactions: funnel.transactions },
    });
    return { ...funnel, pendingEvents };
  });
}
