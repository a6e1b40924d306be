import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/**
 * Marks a transaction's funnel contribution as stale (the console's daily funnel aggregate folds it on its next
 * refresh; docs/decisions.md "A daily funnel aggregate"). One small upsert; a new token on every mark, so that a fold
 * running at the same moment keeps a mark written after it read the events.
 */
export async function markFunnelDirty(db: Db, uuidTrx: string, grantorId: string): Promise<void> {
  const token = randomBytes(8).toString('base64url');
  await db
    .insertInto('console_funnel_dirty')
    .values({ uuid_trx: uuidTrx, grantor_id: grantorId, token })
    .onConflict((oc) => oc.column('uuid_trx').doUpdateSet({ token }))
    .execute();
}
