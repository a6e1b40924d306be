/** Webhook endpoints of each grantor and the log of every delivery attempt (migration 0018). */
export interface WebhookEndpointsTable {
  id: string;
  grantor_id: string;
  url: string;
  /** The signing secret, encrypted with the data key (it must be read to sign; shown once at creation). */
  secret_enc: string;
  active: number;
  created_at: string;
  /** The event types it receives, comma-separated; null: every event (migration 0024). */
  events: string | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  /** HTTP status of the receiver's answer; null when it did not answer (timeout, refused connection). */
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  delivered_at: string;
  /** The job of the attempt (migration 0023; null for attempts logged before it). */
  job_id: string | null;
}

/** One row per webhook job: its endpoint and event in clear, so an endpoint's deliveries are listed by SQL (0023). */
export interface WebhookQueueTable {
  job_id: string;
  endpoint_id: string;
  grantor_id: string;
  uuid_trx: string | null;
  event_id: string;
  event_type: string;
  folio: string | null;
  /** The job this one replays, when an admin re-queued a delivery from the console. */
  replay_of: string | null;
  created_at: string;
}

declare module '../../store/schema.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_queue: WebhookQueueTable;
  }
}
