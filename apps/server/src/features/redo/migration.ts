import type { Kysely, Migration } from 'kysely';

/** 0029_redo_requests: the review decision `redo` (ask the customer to redo one step through a single-use link). */
export const redoRequestsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('redo_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('uuid_user', 'text', (c) => c.notNull())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('note_enc', 'text', (c) => c.notNull())
      .addColumn('channels', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema.createIndex('redo_requests_trx_idx').on('redo_requests').columns(['uuid_trx']).execute();
  },
};
