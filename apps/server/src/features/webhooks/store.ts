import { randomUUID } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
import type {} from './tables.js';

export interface WebhookEndpoint {
  id: string;
  grantorId: string;
  url: string;
  active: boolean;
  createdAt: string;
  /** The event types it receives; null: every event. */
  events: string[] | null;
}

const secretContext = (id: string) => `webhook_endpoints:${id}`;

export async function insertEndpoint(db: Db, cipher: DataCipher, endpoint: { grantorId: string; url: string; secret: string; events?: readonly string[] | null }, now = new Date()): Promise<string> {
  const id = randomUUID();
  const events = endpoint.events?.length ? endpoint.events.join(',') : null;
  await db
    .insertInto('webhook_endpoints')
    .values({ id, grantor_id: endpoint.grantorId, url: endpoint.url, secret_enc: cipher.encrypt(endpoint.secret, secretContext(id)), active: 1, created_at: now.toISOString(), events })
    .execute();
  return id;
}

export async function listEndpoints(db: Db, grantorId?: string): Promise<WebhookEndpoint[]> {
  let query = db.selectFrom('webhook_endpoints').select(['id', 'grantor_id', 'url', 'active', 'created_at', 'events']).orderBy('created_at');
  if (grantorId) query = query.where('grantor_id', '=', grantorId);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, grantorId: r.grantor_id, url: r.url, active: r.active === 1, createdAt: r.created_at, events: r.events ? r.events.split(',') : null }));
}

/** The grantor's active endpoints that receive `eventType` (all of them when no type is given). */
export async function activeEndpointIds(db: Db, grantorId: string, eventType?: string): Promise<string[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(['id', 'events']).where('grantor_id', '=', grantorId).where('active', '=', 1).execute();
  return rows.filter((r) => !eventType || r.events === null || r.events.split(',').includes(eventType)).map((r) => r.id);
}

/** The endpoint's URL and signing secret, if it is still active (a removed endpoint gets no more deliveries). */
export async function endpointForDelivery(db: Db, cipher: DataCipher, id: string): Promise<{ url: string; secret: string } | undefined> {
  const row = await db.selectFrom('webhook_endpoints').select(['url', 'secret_enc', 'active']).where('id', '=', id).executeTakeFirst();
  if (!row || row.active !== 1) return undefined;
  return { url: row.url, secret: cipher.decrypt(row.secret_enc, secretContext(id)) };
}

export async function deactivateEndpoint(db: Db, id: string): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set({ active: 0 }).where('id', '=', id).where('active', '=', 1).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface DeliveryRecord {
  jobId?: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export async function recordDelivery(db: Db, record: DeliveryRecord, now = new Date()): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: uuidv7(now.getTime()),
      endpoint_id: record.endpointId,
      event_id: record.eventId,
      event_type: record.eventType,
      attempt: record.attempt,
      status_code: record.statusCode,
      duration_ms: Math.round(record.durationMs),
      error: record.error,
      delivered_at: now.toISOString(),
      job_id: record.jobId ?? null,
    })
    .execute();
}

export async function listDeliveries(db: Db, endpointId: string, limit = 20): Promise<Array<DeliveryRecord & { deliveredAt: string }>> {
  const rows = await db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('delivered_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: Number(r.attempt),
    statusCode: r.status_code === null ? null : Number(r.status_code),
    durationMs: Number(r.duration_ms),
    error: r.error,
    deliveredAt: r.delivered_at,
  }));
}

export interface QueuedDelivery {
  jobId: string;
  endpointId: string;
  grantorId: string;
  uuidTrx: string | null;
  eventId: string;
  eventType: string;
  folio: string | null;
  replayOf: string | null;
}

export async function recordQueued(db: Db, row: QueuedDelivery, now = new Date()): Promise<void> {
  await db
    .insertInto('webhook_queue')
    .values({
      job_id: row.jobId,
      endpoint_id: row.endpointId,
      grantor_id: row.grantorId,
      uuid_trx: row.uuidTrx,
      event_id: row.eventId,
      event_type: row.eventType,
      folio: row.folio,
      replay_of: row.replayOf,
      created_at: now.toISOString(),
    })
    .execute();
}

export async function findQueued(db: Db, jobId: string): Promise<QueuedDelivery | undefined> {
  const row = await db.selectFrom('webhook_queue').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  return row
    ? {
        jobId: row.job_id,
        endpointId: row.endpoint_id,
        grantorId: row.grantor_id,
        uuidTrx: row.uuid_trx,
        eventId: row.event_id,
        eventType: row.event_type,
        folio: row.folio,
        replayOf: row.replay_of,
      }
    : undefined;
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').select(['id', 'grantor_id', 'url', 'active', 'created_at', 'events']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, grantorId: row.grantor_id, url: row.url, active: row.active === 1, createdAt: row.created_at, events: row.events ? row.events.split(',') : null } : undefined;
}
