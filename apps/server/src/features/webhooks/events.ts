import { randomUUID } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { enqueueJob } from '../../jobs/queue.js';
import type { Db } from '../../store/db.js';
import { activeEndpointIds, recordQueued } from './store.js';

export const webhookJobKind = 'webhook';

export const webhookEventTypes = ['verification.completed', 'verification.abandoned', 'review.decided'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The body every endpoint receives for one event: the same id on every retry and every endpoint. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** ISO 8601. */
  created: string;
  data: Record<string, unknown>;
}

export interface WebhookJobPayload {
  endpointId: string;
  event: WebhookEvent;
}

/**
 * Roughly 24 hours of retries with the job queue's backoff (30 s doubling to one hour, then hourly): 7 attempts in
 * the first hour, then one an hour.
 */
export const webhookMaxAttempts = 30;

/**
 * Queues one delivery job per active endpoint of the grantor. Called inside the database transaction that records
 * what the event reports, so the event is queued exactly when that is committed (and survives a restart).
 */
export async function enqueueWebhookEvent(
  db: Db,
  cipher: DataCipher,
  event: { grantorId: string; uuidTrx: string; type: WebhookEventType; data: Record<string, unknown> },
  now = new Date(),
): Promise<string | undefined> {
  const endpoints = await activeEndpointIds(db, event.grantorId, event.type);
  if (endpoints.length === 0) return undefined;
  const body: WebhookEvent = { id: `evt_${randomUUID()}`, type: event.type, created: now.toISOString(), data: event.data };
  for (const endpointId of endpoints) await enqueueDelivery(db, cipher, { grantorId: event.grantorId, uuidTrx: event.uuidTrx, endpointId, event: body }, now);
  return body.id;
}

/** One delivery job of `event` to one endpoint, and its row in the console's delivery list. */
export async function enqueueDelivery(
  db: Db,
  cipher: DataCipher,
  delivery: { grantorId: string; uuidTrx: string | null; endpointId: string; event: WebhookEvent; replayOf?: string },
  now = new Date(),
): Promise<string> {
  const { endpointId, event } = delivery;
  const jobId = await enqueueJob(
    db,
    cipher,
    { kind: webhookJobKind, ...(delivery.uuidTrx ? { uuidTrx: delivery.uuidTrx } : {}), payload: { endpointId, event } satisfies WebhookJobPayload, maxAttempts: webhookMaxAttempts },
    now,
  );
  const folio = event.data.folio;
  await recordQueued(
    db,
    {
      jobId,
      endpointId,
      grantorId: delivery.grantorId,
      uuidTrx: delivery.uuidTrx,
      eventId: event.id,
      eventType: event.type,
      folio: typeof folio === 'string' ? folio : null,
      replayOf: delivery.replayOf ?? null,
    },
    now,
  );
  return jobId;
}
