import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { postalCatalogueMigration } from '../postal/migration.js';
import { resultsMigration } from '../results/migration.js';
import { secretKeysMigration } from '../secret-keys/migration.js';
import { smsMigration } from '../sms/migration.js';
import { currentSchema, type Db } from './db.js';

/*
 * Migrations are code, not files, so they run the same from src/ (tsx) and dist/ (node).
 * Only portable column types (text, integer) so that one definition serves SQLite and PostgreSQL.
 * Never edit a migration that has shipped: add a new one with the next number.
 */
const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('grantors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('apikey_hash', 'text', (c) => c.notNull().unique())
        .addColumn('apikey_prefix', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('grantor_params')
        .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id').onDelete('cascade'))
        .addColumn('id_campo', 'text', (c) => c.notNull())
        .addColumn('valor', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('grantor_params_pk', ['grantor_id', 'id_campo'])
        .execute();

      await db.schema
        .createTable('transactions')
        .addColumn('uuid_trx', 'text', (c) => c.primaryKey())
        .addColumn('uuid_user', 'text', (c) => c.notNull())
        .addColumn('grantor_id', 'text', (c) => c.notNull().references('grantors.id'))
        .addColumn('current_step', 'text')
        .addColumn('lock_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transactions_grantor_idx').on('transactions').columns(['grantor_id', 'created_at']).execute();

      await db.schema
        .createTable('transaction_attempts')
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('transaction_attempts_pk', ['uuid_trx', 'step'])
        .execute();

      await db.schema
        .createTable('lifecycle_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('grantor_id', 'text', (c) => c.notNull())
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('payload_enc', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lifecycle_events_trx_idx').on('lifecycle_events').columns(['uuid_trx', 'id']).execute();

      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('grantor_id', 'text', (c) => c.notNull())
        .addColumn('paso', 'text', (c) => c.notNull())
        .addColumn('tipo', 'text', (c) => c.notNull())
        .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('payload_enc', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_events_trx_idx').on('audit_events').columns(['uuid_trx', 'id']).execute();
    },
  },
  '0002_postal_catalogue': postalCatalogueMigration,
  '0003_evidence': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('evidence')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('grantor_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text')
        .addColumn('sha256', 'text')
        .addColumn('payload_enc', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('evidence_trx_kind_idx').on('evidence').columns(['uuid_trx', 'kind', 'id']).execute();
    },
  },
  '0004_video_token_codes': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('video_token_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('grantor_id', 'text', (c) => c.notNull())
        .addColumn('code_enc', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expire_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('video_token_codes_trx_idx').on('video_token_codes').columns(['uuid_trx', 'created_at']).execute();
    },
  },
  '0005_results': resultsMigration,
  '0006_sms': smsMigration,
  '0007_secret_keys': secretKeysMigration,
  // The randomised digit schedule of each code (domain/video-token/schedule.ts), encrypted like the code; null for
  // codes issued before it, which are judged on the spec's fixed timing.
  '0008_video_token_schedule': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('video_token_codes').addColumn('schedule_enc', 'text').execute();
    },
  },
};

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/*
 * On PostgreSQL the migration tables are pinned to the current schema: unpinned, Kysely looks for them in
 * every schema and, finding another schema's copy, skips creating its own (then fails to lock).
 */
async function migratorFor(db: Db): Promise<Migrator> {
  const schema = await currentSchema(db);
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** Runs every pending migration; throws MigrationError naming the failed migration. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).then(
    (migrator) => migrator.migrateToLatest(),
    (failure: unknown) => ({ error: failure, results: undefined }),
  );
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      failed ? `Migration ${failed} failed: ${reason}` : `Migrations could not run: ${reason}`,
      { cause: error },
    );
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** True when every migration known to this build has run on the database. */
export async function migrationsComplete(db: Db): Promise<boolean> {
  try {
    const all = await (await migratorFor(db)).getMigrations();
    return all.every((m) => m.executedAt !== undefined);
  } catch {
    return false;
  }
}
