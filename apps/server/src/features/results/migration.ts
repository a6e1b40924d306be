import type { Kysely, Migration } from 'kysely';

/** 0005_results: result links (single consultation), durable jobs, finished transactions. */
export const resultsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('result_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('uuid_user', 'text', (c) => c.notNull())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'text', (c) => c.notNull())
      .addColumn('verified_at', 'text')
      .addColumn('consumed_at', 'text')
      .execute();
    await db.schema.createIndex('result_links_trx_idx').on('result_links').columns(['uuid_trx']).execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('uuid_trx', 'text')
      .addColumn('payload_enc', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('run_at', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['state', 'run_at']).execute();

    await db.schema
      .createTable('transaction_outcomes')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/** 0010_result_emails: the one recipient and the send count of each transaction's result e-mail (issue #15). */
export const resultEmailsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('result_emails')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('recipient_hash', 'text', (c) => c.notNull())
      .addColumn('recipient_enc', 'text', (c) => c.notNull())
      .addColumn('sends', 'integer', (c) => c.notNull())
      .addColumn('first_at', 'text', (c) => c.notNull())
      .addColumn('last_at', 'text', (c) => c.notNull())
      .execute();
  },
};
