/** Row types of the tables of migration 0006_sms (features/sms/migration.ts). */
export interface SmsCodesTable {
  id: string;
  uuid_trx: string;
  grantor_id: string;
  /** HMAC of area code and number: finds the code of a number without decrypting it. */
  phone_hash: string;
  /** The number, encrypted with the data key. */
  phone_enc: string;
  salt: string;
  /** HMAC-SHA256 of salt and code: the code itself is never stored. */
  code_hash: string;
  attempts: number;
  /** active | verified | superseded | exhausted */
  state: string;
  created_at: string;
  expires_at: string;
  verified_at: string | null;
}

export interface LauncherIdentitiesTable {
  grantor_id: string;
  uuid_user: string;
  created_at: string;
}

export interface SmsTables {
  sms_codes: SmsCodesTable;
  launcher_identities: LauncherIdentitiesTable;
}

declare module '../../store/schema.js' {
  interface Database extends SmsTables {}
}
