import type { Kysely, Migration } from 'kysely';
import { secretKeysMigration } from '../secret-keys/migration.js';

/*
 * The core tables every feature builds on (grantors, transactions, attempts, events, evidence, secret keys).
 * Features contribute their own migrations (features/migrations.ts); the composition root runs them all in
 * name order (src/migrations.ts). Migrations are code, not files, so they run the same from src/ (tsx) and
 * dist/ (node). Only portable column types (text, integer) so that one definition serves SQLite and
 * PostgreSQL. Never edit or rename a migration that has shipped: add a new one with the next number.
 */
export const coreMigrations: Record<string, Migration> = {
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
  '0007_secret_keys': secretKeysMigration,
  // Attempts being decided, apart from the counted ones (store/attempts.ts): a request spends one before its work
  // while count + in_flight < limit. 0010, not 0009: the abuse-limits branch takes 0009.
  '0011_attempts_in_flight': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('transaction_attempts')
        .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // A lock outlives its transaction: a new one of the same grantor and client is refused while any of theirs is
  // locked (store/transactions.ts findClientLock); this index finds them.
  '0013_transactions_client_idx': {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('transactions_client_idx').on('transactions').columns(['grantor_id', 'uuid_user', 'lock_until']).execute();
    },
  },
  // Grantors created before this keep a launcher open to every origin while ORIGENES_LAUNCHER is empty (as they were
  // promised); grantors created from now on are closed until it names their pages (docs/decisions.md).
  '0017_launcher_origins_open': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('grantors')
        .addColumn('launcher_any_origin', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  // A job carries the id of the request that enqueued it, so the worker's log lines join the API's (jobs/worker.ts).
  '0020_jobs_request_id': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
    },
  },
  // 'Cancelar proceso' closes the transaction on the server too: no capture is accepted after it (features/results/outcomes.ts).
  '0021_transactions_cancelled': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('transactions').addColumn('cancelled_at', 'text').execute();
    },
  },
  // With tracing on, a job's run joins the trace of the request that enqueued it (tracing/spans.ts).
  '0033_jobs_trace_parent': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('jobs').addColumn('trace_parent', 'text').execute();
    },
  },
};
