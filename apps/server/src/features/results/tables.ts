/** Tables of migration 0005_results (features/results/migration.ts). Timestamps are ISO-8601 UTC text. */

/** A result link issued for the /pdf_token flow: issued → verified (face re-verification) → consumed (one download). */
export interface ResultLinksTable {
  id: string;
  uuid_trx: string;
  uuid_user: string;
  grantor_id: string;
  document: string;
  expires_at: string;
  state: 'issued' | 'verified' | 'consumed';
  issued_at: string;
  verified_at: string | null;
  consumed_at: string | null;
}

/** A durable background job (the result e-mail). Claimed with a lease so two nodes never run it together. */
export interface JobsTable {
  id: string;
  kind: string;
  uuid_trx: string | null;
  payload_enc: string;
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  run_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  /** The id of the request that enqueued it (migration 0020), logged by the worker that runs it. */
  request_id: string | null;
  /** The W3C traceparent of the span that enqueued it (migration 0033), when tracing is on. */
  trace_parent: string | null;
  created_at: string;
  updated_at: string;
}

/** The transaction's finished event (docs/flow.md §4 "Finished event"): once here, the transaction is never re-opened. */
export interface TransactionOutcomesTable {
  uuid_trx: string;
  status: string;
  finished_at: string;
}

/**
 * The result e-mail of a transaction (migration 0010_result_emails): the one address it may go to (bound by the
 * first accepted call) and how many were queued, at most 1 + RESULT_EMAIL_RESENDS.
 */
export interface ResultEmailsTable {
  uuid_trx: string;
  /** HMAC of the normalised address (features/results/result-emails.ts). */
  recipient_hash: string;
  /** The address, encrypted with the data key. */
  recipient_enc: string;
  sends: number;
  first_at: string;
  last_at: string;
}

export interface ResultsTables {
  result_emails: ResultEmailsTable;
  result_links: ResultLinksTable;
  jobs: JobsTable;
  transaction_outcomes: TransactionOutcomesTable;
}

declare module '../../store/schema.js' {
  interface Database extends ResultsTables {}
}
