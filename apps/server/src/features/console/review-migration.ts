import type { Kysely, Migration } from 'kysely';

/** 0019_console_reviews: the review decisions of the console, and the current one on the case index for the list. */
export const consoleReviewsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('console_reviews')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid_trx', 'text', (c) => c.notNull().unique().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('decision', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('note_enc', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('console_cases').addColumn('review_decision', 'text').execute();
    await db.schema.alterTable('console_cases').addColumn('review_reason', 'text').execute();
  },
};
