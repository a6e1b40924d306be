/** Row types of the tables of migration 0012_console (features/console/migrations.ts). Timestamps are ISO-8601 UTC text. */

/** A member of a lender's staff (grantor_id set) or a platform operator (grantor_id null, role `operator`). */
export interface ConsoleUsersTable {
  id: string;
  /** Null only for a platform operator, who may choose any grantor. */
  grantor_id: string | null;
  /** Lower-cased. */
  email: string;
  /** admin | reviewer | viewer | operator */
  role: string;
  /** `scrypt$N$r$p$salt$hash` (features/console/passwords.ts): the password itself is never stored. */
  password_hash: string;
  /** The TOTP secret (base32), encrypted with the data key; null until enrolled. */
  totp_secret_enc: string | null;
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totp_last_step: number | null;
  active: number;
  created_at: string;
  updated_at: string;
}

/** A signed-in browser. Only the SHA-256 of the cookie's random id is stored. */
export interface ConsoleSessionsTable {
  id_hash: string;
  user_id: string;
  /** password: the password was right, the TOTP code is still due; active: signed in. */
  stage: string;
  created_at: string;
  last_seen_at: string;
  /** Idle expiry, moved forward while the session is used (never past absolute_expires_at). */
  expires_at: string;
  absolute_expires_at: string;
}

/** Failed sign-ins of a subject (`user:<id>`, `email:<hmac>` or `ip:<address>`) within the current window. */
export interface ConsoleLockoutsTable {
  subject: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

/** Every sign-in, failure, lockout, sign-out and case view. Never a password, code or customer datum. */
export interface ConsoleAuditTable {
  id: string;
  action: string;
  user_id: string | null;
  grantor_id: string | null;
  ip: string;
  /** JSON: the e-mail typed on a failure, the filters of a list, the case viewed. */
  detail: string;
  created_at: string;
}

/** What the case list shows and searches without decrypting evidence: one row per transaction. */
export interface ConsoleCasesTable {
  uuid_trx: string;
  grantor_id: string;
  /** The holder's name, encrypted with the data key (context `console-case-name:<uuid_trx>`). */
  holder_name_enc: string | null;
  /** GREEN | YELLOW | RED once the finished transaction was scored; null before. */
  flag: string | null;
  /** approve | reject once reviewed (migration 0019); the decision itself is in console_reviews. */
  review_decision: string | null;
  review_reason: string | null;
  updated_at: string;
}

/** One review decision per case (migration 0019). */
export interface ConsoleReviewsTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  user_id: string;
  /** approve | reject */
  decision: string;
  /** One of consoleReviewReasons. */
  reason: string;
  /** The reviewer's note, encrypted with the data key (context `console-review-note:<id>`): it may name the person. */
  note_enc: string;
  created_at: string;
}

/** Keyed blind index: HMAC of a normalised CURP or name word; finds a case without storing the plaintext. */
export interface ConsoleSearchTermsTable {
  grantor_id: string;
  /** curp | name */
  kind: string;
  term_hmac: string;
  uuid_trx: string;
}

/** The funnel's daily aggregate (migration 0030): one row per grantor, UTC day of opening and step. */
export interface ConsoleFunnelDaysTable {
  grantor_id: string;
  /** YYYY-MM-DD (UTC) of the transactions' creation. */
  day: string;
  /** The step's index in consoleFunnelSteps. */
  ord: number;
  reached: number;
  /** Transactions whose furthest step is this one (the end excluded). */
  stopped: number;
  /** JSON object: duration bucket (funnel-aggregate.ts bucketOf) → count. */
  hist: string;
}

/** What one transaction contributes to the aggregate, one row per step reached (migration 0030). */
export interface ConsoleFunnelStepsTable {
  uuid_trx: string;
  ord: number;
  grantor_id: string;
  /** The transaction's created_at, copied: the range and the day are read from it. */
  created_at: string;
  /** Milliseconds since the previous step reached (null for the opening); bigint on PostgreSQL. */
  ms: number | string | null;
  bucket: number | null;
  /** 1 on the transaction's furthest step. */
  last: number;
}

export interface ConsoleFunnelGrantorsTable {
  grantor_id: string;
  backfilled_at: string;
}

export interface ConsoleTables {
  console_funnel_days: ConsoleFunnelDaysTable;
  console_funnel_steps: ConsoleFunnelStepsTable;
  console_funnel_grantors: ConsoleFunnelGrantorsTable;
  console_users: ConsoleUsersTable;
  console_sessions: ConsoleSessionsTable;
  console_lockouts: ConsoleLockoutsTable;
  console_audit: ConsoleAuditTable;
  console_cases: ConsoleCasesTable;
  console_search_terms: ConsoleSearchTermsTable;
  console_reviews: ConsoleReviewsTable;
}

declare module '../../store/schema.js' {
  interface Database extends ConsoleTables {}
}
