import type { Db } from '../../store/db.js';
import type {} from '../../jobs/queue.js';
import type {} from './tables.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One delivery (one event to one endpoint, one job) with the outcome of its latest attempt. */
export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  folio: string | null;
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  nextRetryAt: string | null;
  status: DeliveryStatus;
  createdAt: string;
  replayOf: string | null;
}

/**
 * What became of a delivery: a 2xx answer delivered it; a job that failed for good failed it; a job done without
 * a 2xx had its endpoint removed first (dropped); anything else is still queued (or its job was erased: pending
 * with no next retry). Pure.
 */
export function deliveryStatus(state: string | null, lastStatusCode: number | null): DeliveryStatus {
  if (lastStatusCode !== null && lastStatusCode >= 200 && lastStatusCode <= 299) return 'delivered';
  if (state === 'failed') return 'failed';
  if (state === 'done') return 'dropped';
  return 'pending';
}

/** One page of an endpoint's deliveries, newest first, keyset-paginated by job id (a UUIDv7: time-ordered). */
export async function listEndpointDeliveries(db: Db, endpointId: string, page: { before?: string | undefined; limit: number }): Promise<{ deliveries: DeliveryView[]; next: string | undefined }> {
  let select = db
    .selectFrom('webhook_queue as q')
    .leftJoin('jobs as j', 'j.id', 'q.job_id')
    .select((eb) => {
      const last = () => eb.selectFrom('webhook_deliveries as d').whereRef('d.job_id', '=', 'q.job_id').orderBy('d.delivered_at', 'desc').orderBy('d.id', 'desc').limit(1);
      return [
        'q.job_id',
        'q.event_id',
        'q.event_type',
        'q.folio',
        'q.replay_of',
        'q.created_at',
        'j.state',
        'j.run_at',
        last().select('d.status_code').as('last_status'),
        last().select('d.duration_ms').as('last_duration'),
        last().select('d.error').as('last_error'),
        eb
          .selectFrom('webhook_deliveries as d')
          .whereRef('d.job_id', '=', 'q.job_id')
          .select((e) => e.fn.countAll().as('n'))
          .as('attempts'),
      ];
    })
    .where('q.endpoint_id', '=', endpointId);
  if (page.before) select = select.where('q.job_id', '<', page.before);
  const rows = await select
    .orderBy('q.job_id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  return {
    deliveries: shown.map((r) => {
      const lastStatusCode = r.last_status === null || r.last_status === undefined ? null : Number(r.last_status);
      const status = deliveryStatus(r.state ?? null, lastStatusCode);
      return {
        id: r.job_id,
        eventId: r.event_id,
        eventType: r.event_type,
        folio: r.folio,
        attempts: Number(r.attempts ?? 0),
        lastStatusCode,
        lastDurationMs: r.last_duration === null || r.last_duration === undefined ? null : Number(r.last_duration),
        lastError: r.last_error ?? null,
        nextRetryAt: status === 'pending' && r.state === 'pending' ? (r.run_at ?? null) : null,
        status,
        createdAt: r.created_at,
        replayOf: r.replay_of,
      };
    }),
    next: rows.length > page.limit ? shown.at(-1)?.job_id : undefined,
  };
}
