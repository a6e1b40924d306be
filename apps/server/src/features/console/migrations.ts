import type { Kysely, Migration } from 'kysely';

/** 0012_console: staff users, sessions, lockouts and audit of the review console; the case index and its blind index. */
export const consoleMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('console_users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.references('grantors.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('totp_secret_enc', 'text')
      .addColumn('totp_last_step', 'integer')
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('console_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id').onDelete('cascade'))
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_sessions_user_idx').on('console_sessions').columns(['user_id']).execute();

    await db.schema
      .createTable('console_lockouts')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .execute();

    await db.schema
      .createTable('console_audit')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('grantor_id', 'text')
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_audit_grantor_idx').on('console_audit').columns(['grantor_id', 'id']).execute();

    await db.schema
      .createTable('console_cases')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('holder_name_enc', 'text')
      .addColumn('flag', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('console_search_terms')
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('term_hmac', 'text', (c) => c.notNull())
      .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
      .addPrimaryKeyConstraint('console_search_terms_pk', ['grantor_id', 'kind', 'term_hmac', 'uuid_trx'])
      .execute();
    // The case list pages by (created_at, uuid_trx) within a grantor.
    await db.schema.createIndex('transactions_grantor_page_idx').on('transactions').columns(['grantor_id', 'created_at', 'uuid_trx']).execute();
  },
};
