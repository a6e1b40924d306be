import type { Kysely, Migration } from 'kysely';

/**
 * 0022_retention: per-grantor retention policy, legal holds, tombstones of deleted items, data-subject requests,
 * and two marks on transactions: restricted_at (blocked at the person's request: no further processing or reads)
 * and erased_at (its data deleted; the row and the tombstones remain).
 */
export const retentionMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('transactions').addColumn('restricted_at', 'text').execute();
    await db.schema.alterTable('transactions').addColumn('erased_at', 'text').execute();
    await db.schema
      .createTable('retention_policies')
      .addColumn('grantor_id', 'text', (c) => c.primaryKey().references('grantors.id'))
      .addColumn('biometric_days', 'integer', (c) => c.notNull())
      .addColumn('file_years', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('retention_holds')
      .addColumn('uuid_trx', 'text', (c) => c.primaryKey().references('transactions.uuid_trx'))
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('placed_by', 'text', (c) => c.notNull())
      .addColumn('placed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('retention_tombstones')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid_trx', 'text', (c) => c.notNull())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text')
      .addColumn('deleted_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('retention_tombstones_trx_idx').on('retention_tombstones').columns(['uuid_trx', 'deleted_at']).execute();
    await db.schema
      .createTable('retention_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('basis', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('retention_requests_grantor_idx').on('retention_requests').columns(['grantor_id', 'created_at']).execute();
    // The sweep finds biometric media by grantor and age.
    await db.schema.createIndex('evidence_grantor_created_idx').on('evidence').columns(['grantor_id', 'created_at']).execute();
  },
};
