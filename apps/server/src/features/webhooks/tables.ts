/** Webhook endpoints of each grantor and the log of every delivery attempt (migration 0018). */
export interface WebhookEndpointsTable {
  id: string;
  grantor_id: string;
  url: string;
  /** The signing secret, encrypted with the data key (it must be read to sign; shown once at creation). */
  secret_enc: string;
  active: number;
  created_at: string;
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
}

declare module '../../store/schema.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}
