import type { Kysely, Migration } from 'kysely';

/** 0024_webhook_endpoint_events: the events an endpoint subscribed to (comma-separated); null: every event. */
export const webhookEndpointEventsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('webhook_endpoints').addColumn('events', 'text').execute();
  },
};
