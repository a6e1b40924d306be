import { sql, type Kysely, type Migration } from 'kysely';

/**
 * 0027_console_funnel: the status of each lifecycle event (OK / FAIL / INCOMPLETED / OTHER) in clear, so that the
 * console's funnel counts the steps reached without decrypting every event (the payload stays encrypted; the status
 * carries no personal data), an index the funnel reads without touching the rows, and a partial index of the events
 * stored before this migration, whose status is filled from their payload on first use (features/console/funnel.ts).
 */
export const consoleFunnelMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('lifecycle_events').addColumn('status', 'text').execute();
    await db.schema.createIndex('lifecycle_events_funnel_idx').on('lifecycle_events').columns(['uuid_trx', 'step', 'status', 'received_at']).execute();
    await db.schema.createIndex('lifecycle_events_status_pending_idx').on('lifecycle_events').columns(['grantor_id']).where(sql.ref('status'), 'is', null).execute();
  },
};

/**
 * 0028_outcomes_finished_idx: the console's list looks for finished cases not yet scored among those finished since its
 * last full look (features/console/cases.ts scoreFinishedCases), by finish time.
 */
export const outcomesFinishedIndexMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('transaction_outcomes_finished_idx').on('transaction_outcomes').columns(['finished_at']).execute();
  },
};
