import type { Kysely, Migration } from 'kysely';

/**
 * Migration `0002_postal_catalogue`: the postal-code catalogue and the log of its imports.
 * Portable types only (text, integer). The primary key starts with d_codigo, so it is also the index the lookup
 * by postal code uses; a separate index on d_codigo alone would only slow down the import.
 */
export const postalCatalogueMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('postal_settlements')
      .addColumn('d_codigo', 'text', (c) => c.notNull())
      .addColumn('d_asenta', 'text', (c) => c.notNull())
      .addColumn('d_tipo_asenta', 'text')
      .addColumn('d_mnpio', 'text', (c) => c.notNull())
      .addColumn('d_estado', 'text', (c) => c.notNull())
      .addColumn('d_ciudad', 'text')
      .addColumn('d_zona', 'text')
      .addColumn('c_estado', 'text', (c) => c.notNull())
      .addColumn('c_mnpio', 'text', (c) => c.notNull())
      .addColumn('id_asenta_cpcons', 'text', (c) => c.notNull())
      .addColumn('c_tipo_asenta', 'text')
      .addPrimaryKeyConstraint('postal_settlements_pk', ['d_codigo', 'c_estado', 'c_mnpio', 'id_asenta_cpcons'])
      .execute();

    await db.schema
      .createTable('postal_catalogue_imports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source_name', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('rows_loaded', 'integer', (c) => c.notNull())
      .addColumn('rows_rejected', 'integer', (c) => c.notNull())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<any>) {
    await db.schema.dropTable('postal_catalogue_imports').ifExists().execute();
    await db.schema.dropTable('postal_settlements').ifExists().execute();
  },
};
