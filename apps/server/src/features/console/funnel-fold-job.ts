import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.js';
import { recurringHandler, scheduleRecurring } from '../../jobs/recurring.js';
import type { Db } from '../../store/db.js';
import type { FeatureJobs } from '../index.js';
import { refreshFunnelAggregate } from './funnel-aggregate.js';

export const funnelFoldJobKind = 'console_funnel_fold';
/**
 * A fold a minute: the funnel's request then folds at most a minute of writes itself, and a grantor's first fold
 * (every transaction it has, minutes after a bulk import) is the worker's, not a staff member's waiting screen.
 */
export const funnelFoldIntervalMs = 60_000;

/** Brings every grantor's daily funnel aggregate up to date (funnel-aggregate.ts); what it did. */
export async function foldEveryFunnel(db: Db): Promise<{ grantors: number; folded: number }> {
  const grantors = await db.selectFrom('grantors').select('id').orderBy('id').execute();
  let folded = 0;
  for (const { id } of grantors) folded += await refreshFunnelAggregate(db, id);
  return { grantors: grantors.length, folded };
}

/** The worker's periodic fold: the first one is queued when a worker starts (if none waits), each queues the next. */
export function funnelJobs(deps: Deps, log: FastifyBaseLogger): FeatureJobs {
  scheduleRecurring(deps.db, deps.cipher, funnelFoldJobKind, new Date()).catch((err: unknown) => log.error({ err }, 'could not schedule the funnel fold'));
  const fold = recurringHandler(deps, funnelFoldJobKind, funnelFoldIntervalMs, async () => {
    const result = await foldEveryFunnel(deps.db);
    if (result.folded > 0) log.info(result, 'funnel aggregate folded');
  });
  return { handlers: { [funnelFoldJobKind]: fold } };
}
