import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { markFunnelDirty } from '../../store/funnel-marks.js';
import { uuidv7 } from '../../store/ids.js';
import { lifecycleStatusOf } from './lifecycle.js';
import type {} from './tables.js';

export interface StoredEvent {
  id: string;
  receivedAt: string;
  payload: unknown;
}

// The row id and transaction are bound into the ciphertext, so a payload moved to another row fails to decrypt.
export const lifecycleContext = (uuidTrx: string, id: string) => `lifecycle_events:${uuidTrx}:${id}`;
const auditContext = (uuidTrx: string, id: string) => `audit_events:${uuidTrx}:${id}`;

export async function insertLifecycleEvent(db: Db, cipher: DataCipher, event: { uuidTrx: string; grantorId: string; step: string; payload: unknown }, now: Date = new Date()): Promise<string> {
  const id = uuidv7(now.getTime());
  const status = lifecycleStatusOf(event.payload);
  await db
    .insertInto('lifecycle_events')
    .values({
      id,
      uuid_trx: event.uuidTrx,
      grantor_id: event.grantorId,
      step: event.step,
      // In clear for the console's funnel (OK / FAIL / INCOMPLETED / OTHER): no personal data.
      status,
      payload_enc: cipher.encrypt(JSON.stringify(event.payload), lifecycleContext(event.uuidTrx, id)),
      received_at: now.toISOString(),
    })
    .execute();
  // Only a completed step (or the end) moves the funnel (features/console/funnel.ts).
  if (status === 'OK' || event.step === 'finished') await markFunnelDirty(db, event.uuidTrx, event.grantorId);
  return id;
}

export async function insertAuditEvent(
  db: Db,
  cipher: DataCipher,
  event: { uuidTrx: string; grantorId: string; paso: string; tipo: string; finished: boolean; payload: unknown },
  now: Date = new Date(),
): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('audit_events')
    .values({
      id,
      uuid_trx: event.uuidTrx,
      grantor_id: event.grantorId,
      paso: event.paso,
      tipo: event.tipo,
      finished: event.finished ? 1 : 0,
      payload_enc: cipher.encrypt(JSON.stringify(event.payload), auditContext(event.uuidTrx, id)),
      received_at: now.toISOString(),
    })
    .execute();
  return id;
}

async function listEvents(db: Db, cipher: DataCipher, table: 'lifecycle_events' | 'audit_events', context: (uuidTrx: string, id: string) => string, uuidTrx: string): Promise<StoredEvent[]> {
  const rows = await db.selectFrom(table).select(['id', 'payload_enc', 'received_at']).where('uuid_trx', '=', uuidTrx).orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    payload: JSON.parse(cipher.decrypt(r.payload_enc, context(uuidTrx, r.id))),
  }));
}

export function listLifecycleEvents(db: Db, cipher: DataCipher, uuidTrx: string): Promise<StoredEvent[]> {
  return listEvents(db, cipher, 'lifecycle_events', lifecycleContext, uuidTrx);
}

export function listAuditEvents(db: Db, cipher: DataCipher, uuidTrx: string): Promise<StoredEvent[]> {
  return listEvents(db, cipher, 'audit_events', auditContext, uuidTrx);
}

/**
 * Takes one of the transaction's `max` event slots in one statement (an insert, or an increment guarded by the
 * bound), so concurrent requests and several nodes never store more than `max`. False: the bound is reached.
 * Run it in the same database transaction as the insert of the event, so a refused or failed event takes none.
 */
export async function takeEventSlot(db: Db, uuidTrx: string, max: number): Promise<boolean> {
  const result = await db
    .insertInto('transaction_event_counts')
    .values({ uuid_trx: uuidTrx, events: 1 })
    .onConflict((oc) =>
      oc
        .column('uuid_trx')
        .doUpdateSet((eb) => ({ events: eb(eb.ref('transaction_event_counts.events'), '+', 1) }))
        .where('transaction_event_counts.events', '<', max),
    )
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}
