import type { Generated } from 'kysely';
import type { SecretKeyTables } from '../secret-keys/tables.js';
/** Row types of every table (see migrations.ts). Timestamps are ISO-8601 UTC text; flags are 0/1 integers. */
export interface GrantorsTable {
  id: string;
  name: string;
  apikey_hash: string;
  apikey_prefix: string;
  active: number;
  /** 1: an empty ORIGENES_LAUNCHER lets every origin use the launcher (grantors created before migration 0017, the demo). */
  launcher_any_origin: number;
  created_at: string;
  updated_at: string;
}

export interface GrantorParamsTable {
  grantor_id: string;
  id_campo: string;
  valor: string;
  updated_at: string;
}

export interface TransactionsTable {
  uuid_trx: string;
  uuid_user: string;
  grantor_id: string;
  current_step: string | null;
  lock_until: string | null;
  /** When the person cancelled the journey ('Cancelar proceso'); a cancelled transaction accepts no capture. */
  cancelled_at: string | null;
  /** Blocked at the person's request (migration 0022_retention): no further capture, read or document. */
  restricted_at: string | null;
  /** Its data deleted by the retention policy or a request (0022_retention); only this row and tombstones remain. */
  erased_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransactionAttemptsTable {
  uuid_trx: string;
  step: string;
  /** Attempts whose outcome counted (failed captures). */
  count: number;
  /** Attempts spent and still being decided (migration 0010; see store/attempts.ts). */
  in_flight: Generated<number>;
  updated_at: string;
}

export interface LifecycleEventsTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  step: string;
  /** OK | FAIL | INCOMPLETED | OTHER ('' when the event had none), from the payload's event JSON (migration 0027); null for events stored before it. */
  status: string | null;
  payload_enc: string;
  received_at: string;
}

export interface AuditEventsTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  paso: string;
  tipo: string;
  finished: number;
  payload_enc: string;
  received_at: string;
}

export interface EvidenceTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  kind: string;
  blob_key: string | null;
  sha256: string | null;
  payload_enc: string | null;
  created_at: string;
}

/**
 * A transaction whose funnel contribution must be recomputed (migration 0030, features/console/funnel-aggregate.ts):
 * written with each write that can change it (a new transaction, a lifecycle event, a face-video decision, an
 * erasure). `token` changes with every mark, so the fold deletes only the marks it has read.
 */
export interface FunnelDirtyTable {
  uuid_trx: string;
  grantor_id: string;
  token: string;
}

/**
 * The tables of the core; each feature adds its own to this interface from its `tables.ts`
 * (`declare module '…/store/schema.js'`), so this layer never imports a feature.
 */
export interface Database extends SecretKeyTables {
  grantors: GrantorsTable;
  grantor_params: GrantorParamsTable;
  transactions: TransactionsTable;
  transaction_attempts: TransactionAttemptsTable;
  lifecycle_events: LifecycleEventsTable;
  audit_events: AuditEventsTable;
  evidence: EvidenceTable;
  console_funnel_dirty: FunnelDirtyTable;
}
