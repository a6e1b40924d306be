import type { Kysely, Migration } from 'kysely';

/** 0009_event_counts: the per-transaction event counter behind EVENTS_PER_TRANSACTION (issue #15). */
export const eventCountsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('transaction_event_counts')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('events', 'integer', (c) => c.notNull())
      .execute();
  },
};
