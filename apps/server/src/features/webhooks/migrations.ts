import type { Kysely, Migration } from 'kysely';

/** 0018_webhooks: endpoints per grantor (secret encrypted) and the delivery log. */
export const webhooksMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret_enc', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_grantor_idx').on('webhook_endpoints').columns(['grantor_id', 'active']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('delivered_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'delivered_at']).execute();
    await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();
  },
};

/**
 * 0023_webhook_queue: which endpoint and event each webhook job carries (the job's payload is encrypted, so the
 * console could not list an endpoint's deliveries without decrypting every job), and the job of each attempt.
 */
export const webhookQueueMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhook_queue')
      .addColumn('job_id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('uuid_trx', 'text')
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('folio', 'text')
      .addColumn('replay_of', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_queue_endpoint_idx').on('webhook_queue').columns(['endpoint_id', 'job_id']).execute();
    await db.schema.alterTable('webhook_deliveries').addColumn('job_id', 'text').execute();
    await db.schema.createIndex('webhook_deliveries_job_idx').on('webhook_deliveries').columns(['job_id', 'delivered_at']).execute();
  },
};
