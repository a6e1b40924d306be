/** Retention policy, legal holds, tombstones and data-subject requests (migration 0022_retention). */
export interface RetentionPoliciesTable {
  grantor_id: string;
  /** Days a biometric medium (ID image, holder photo, face or hologram video) is kept after its capture. */
  biometric_days: number;
  /** Years the rest of a transaction's file is kept after its last activity. */
  file_years: number;
  updated_by: string;
  updated_at: string;
}

export interface RetentionHoldsTable {
  uuid_trx: string;
  grantor_id: string;
  reason: string;
  placed_by: string;
  placed_at: string;
}

/** One deleted item: what it was, the SHA-256 of what was deleted, when and why. */
export interface RetentionTombstonesTable {
  /** Deterministic (`media:<evidence id>`, `evidence:<id>`, `<table>:<row hash>`), so a rerun adds nothing twice. */
  id: string;
  uuid_trx: string;
  grantor_id: string;
  /** The evidence kind (ocr_frente, video_token…) or the table of a deleted row. */
  kind: string;
  /** SHA-256 (hex) of the blob's plaintext for media, of the stored row (canonical JSON) otherwise. */
  sha256: string;
  blob_key: string | null;
  /** policy_biometric | policy_file | request */
  reason: string;
  request_id: string | null;
  deleted_at: string;
}

export interface RetentionRequestsTable {
  id: string;
  grantor_id: string;
  /** block | delete */
  action: string;
  /** folio | curp */
  subject_kind: string;
  /** The folio, or the CURP's keyed blind index (never the CURP itself). */
  subject: string;
  requested_by: string;
  basis: string;
  /** done | partial | refused | not_found */
  status: string;
  /** JSON: { done: uuid_trx[], refused: { uuidTrx, reason }[] }. */
  detail: string;
  created_at: string;
}

export interface RetentionTables {
  retention_policies: RetentionPoliciesTable;
  retention_holds: RetentionHoldsTable;
  retention_tombstones: RetentionTombstonesTable;
  retention_requests: RetentionRequestsTable;
}

declare module '../../store/schema.js' {
  interface Database extends RetentionTables {}
}
