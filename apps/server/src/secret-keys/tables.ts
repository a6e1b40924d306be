/** Row types of the tables of migration 0007_secret_keys (secret-keys/migration.ts). */
export interface GrantorSecretKeysTable {
  id: string;
  grantor_id: string;
  /** SHA-256 hex of the key (crypto/apikeys.ts): the key itself is never stored. */
  key_hash: string;
  /** The first characters of the key (`sk_live_AbCd`), to tell keys apart. */
  key_hint: string;
  label: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One row per server-to-server call: ids and the outcome only (never an image nor a face descriptor). */
export interface ServerAuditEventsTable {
  id: string;
  grantor_id: string;
  secret_key_id: string;
  /** e.g. faces.compare */
  operation: string;
  /** The HTTP status answered. */
  status: number;
  /** match | no_match | refused */
  outcome: string;
  request_id: string;
  /** JSON of the figures of the outcome (similarity, threshold, faces found, probe kind) or the refusal's reason. */
  detail: string;
  created_at: string;
}

export interface SecretKeyTables {
  grantor_secret_keys: GrantorSecretKeysTable;
  server_audit_events: ServerAuditEventsTable;
}
