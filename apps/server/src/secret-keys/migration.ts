import type { Kysely, Migration } from 'kysely';

/**
 * 0007_secret_keys: the grantors' secret server keys (several active at once during a rotation) and the audit
 * trail of the server-to-server calls they authorise.
 */
export const secretKeysMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('grantor_secret_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id').onDelete('cascade'))
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_hint', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('grantor_secret_keys_grantor_idx').on('grantor_secret_keys').columns(['grantor_id', 'created_at']).execute();

    await db.schema
      .createTable('server_audit_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id').onDelete('cascade'))
      .addColumn('secret_key_id', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('server_audit_events_grantor_idx').on('server_audit_events').columns(['grantor_id', 'id']).execute();
  },
};
