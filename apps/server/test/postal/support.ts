import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { writeSampleCatalogue } from '../../src/features/postal/sample.js';
import { postalCatalogueMigration } from '../../src/features/postal/migration.js';
import type { PostalTables } from '../../src/features/postal/tables.js';
import { AppCaches } from '../../src/caches.js';

export interface TestDatabase {
  db: Kysely<PostalTables>;
  /** The caches the lookups of these tests go through (the import empties them). */
  caches: AppCaches;
  /** Destroys the database; later calls do nothing. */
  close(): Promise<void>;
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= action());
}

export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** A fresh, migrated database of its own. */
  open(): Promise<TestDatabase>;
}

async function migrate(db: Kysely<PostalTables>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ '0100_postal_catalogue': postalCatalogueMigration }) },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

const sqliteEngine: TestEngine = {
  name: 'sqlite',
  async open() {
    const dir = await mkdtemp(path.join(tmpdir(), 'kyc-postal-db-'));
    const database = new SQLite(path.join(dir, 'test.sqlite'));
    database.pragma('journal_mode = WAL');
    const db = new Kysely<PostalTables>({ dialect: new SqliteDialect({ database }) });
    const close = once(async () => {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    });
    try {
      await migrate(db);
    } catch (error) {
      await close();
      throw error;
    }
    return { caches: new AppCaches(), db, close };
  },
};

function postgresEngine(url: string): TestEngine {
  return {
    name: 'postgres',
    async open() {
      const schema = `t_postal_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const admin = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await admin.query(`create schema ${schema}`);
      } catch (error) {
        await admin.end();
        throw error;
      }
      const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
      const db = new Kysely<PostalTables>({ dialect: new PostgresDialect({ pool }) });
      const close = once(async () => {
        await db.destroy();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      });
      try {
        await migrate(db);
      } catch (error) {
        await close();
        throw error;
      }
      return { caches: new AppCaches(), db, close };
    },
  };
}

/** SQLite always; PostgreSQL too when DATABASE_URL is set. */
export const engines: TestEngine[] = [sqliteEngine, ...(process.env.DATABASE_URL ? [postgresEngine(process.env.DATABASE_URL)] : [])];

/** A temporary folder for catalogue files; `remove` deletes it. */
export async function scratchFolder(): Promise<{ file(name: string): string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kyc-postal-files-'));
  return {
    file: (name) => path.join(dir, name),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Every settlement, in a stable order, to compare catalogues before and after an import. */
/**
 * A scratch folder holding the sample catalogue as CPdescarga.txt for the whole test file (created before all
 * tests, removed after). Read `folder` and `sampleFile` inside tests, not at import time.
 */
export function useSampleCatalogue(): { readonly folder: Awaited<ReturnType<typeof scratchFolder>>; readonly sampleFile: string } {
  const state = {} as { folder: Awaited<ReturnType<typeof scratchFolder>>; sampleFile: string };
  beforeAll(async () => {
    state.folder = await scratchFolder();
    state.sampleFile = state.folder.file('CPdescarga.txt');
    await writeSampleCatalogue(state.sampleFile);
  });
  afterAll(async () => {
    await state.folder.remove();
  });
  return state;
}

export async function catalogueSnapshot(db: Kysely<PostalTables>) {
  return db.selectFrom('postal_settlements').selectAll().orderBy('d_codigo').orderBy('c_estado').orderBy('c_mnpio').orderBy('id_asenta_cpcons').execute();
}

export const officialColumns = 'd_codigo|d_asenta|d_tipo_asenta|D_mnpio|d_estado|d_ciudad|d_CP|c_estado|c_oficina|c_CP|c_tipo_asenta|c_mnpio|id_asenta_cpcons|d_zona|c_cve_ciudad';

/** A data line in the official column order. */
export function officialRow(values: { cp: string; asentamiento: string; municipio: string; estado: string; id: string; cEstado?: string; cMnpio?: string; tipo?: string }): string {
  const { cp, asentamiento, municipio, estado, id, cEstado = '09', cMnpio = '015', tipo = 'Colonia' } = values;
  return [cp, asentamiento, tipo, municipio, estado, 'Ciudad de México', '06001', cEstado, '06001', '', '09', cMnpio, id, 'Urbano', '01'].join('|');
}
