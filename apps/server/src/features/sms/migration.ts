import type { Kysely, Migration } from 'kysely';

/**
 * 0006_sms: SMS verification codes and, with them (one migration number for the embedding work), the user ids
 * the launcher's identity call issues.
 */
export const smsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sms_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
      .addColumn('grantor_id', 'text', (c) => c.notNull())
      .addColumn('phone_hash', 'text', (c) => c.notNull())
      .addColumn('phone_enc', 'text', (c) => c.notNull())
      .addColumn('salt', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('verified_at', 'text')
      .execute();
    await db.schema.createIndex('sms_codes_trx_idx').on('sms_codes').columns(['uuid_trx', 'id']).execute();

    await db.schema
      .createTable('launcher_identities')
      .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id').onDelete('cascade'))
      .addColumn('uuid_user', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('launcher_identities_pk', ['grantor_id', 'uuid_user'])
      .execute();
  },
};
