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

/**
 * 0030_console_funnel_days: the funnel's daily aggregate (features/console/funnel-aggregate.ts). Per grantor, UTC day
 * of opening and step: reached and stopped counts and a histogram of the step's durations (fixed log buckets); per
 * transaction and step what it contributes (so that a change is folded by taking the old contribution out and putting
 * the new one in, and the exact median is read inside one bucket); the transactions whose contribution is stale (marked
 * by the writes); the grantors already backfilled; the transactions recently active, for the in-progress count.
 */
export const consoleFunnelDaysMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('console_funnel_days')
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('ord', 'integer', (c) => c.notNull())
      .addColumn('reached', 'integer', (c) => c.notNull())
      .addColumn('stopped', 'integer', (c) => c.notNull())
      .addColumn('hist', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('console_funnel_days_pk', ['grantor_id', 'day', 'ord'])
      .execute();
    await db.schema
      .createTable('console_funnel_steps')
      .addColumn('uuid_trx', 'text', (c) => c.notNull())
      .addColumn('ord', 'integer', (c) => c.notNull())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('ms', 'bigint')
      .addColumn('bucket', 'integer')
      .addColumn('last', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('console_funnel_steps_pk', ['uuid_trx', 'ord'])
      .execute();
    await db.schema.createIndex('console_funnel_steps_median_idx').on('console_funnel_steps').columns(['grantor_id', 'ord', 'bucket', 'ms', 'created_at']).execute();
    await db.schema.createIndex('console_funnel_steps_created_idx').on('console_funnel_steps').columns(['grantor_id', 'created_at']).execute();
    await db.schema
      .createTable('console_funnel_dirty')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('token', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_funnel_dirty_grantor_idx').on('console_funnel_dirty').columns(['grantor_id']).execute();
    await db.schema
      .createTable('console_funnel_grantors')
      .addColumn('grantor_id', 'text', (c) => c.primaryKey())
      .addColumn('backfilled_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('transactions_grantor_updated_idx').on('transactions').columns(['grantor_id', 'updated_at']).execute();
  },
};
