import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { AppCaches } from '../../src/caches.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { ZodApp } from '../../src/http/deps.js';
import { createDatabase, type Db } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/migrations.js';
import { startS3Server, type S3Server } from './s3-server.js';

export interface Engine {
  name: 'sqlite' | 'postgres';
  databaseUrl?: string;
}

/** SQLite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export const engines: Engine[] = [{ name: 'sqlite' }, ...(process.env.DATABASE_URL ? [{ name: 'postgres' as const, databaseUrl: process.env.DATABASE_URL }] : [])];

export interface TestDatabase {
  db: Db;
  config: Config;
  /** Where `db` points (its PostgreSQL schema included), for a second node on the same database. */
  database: Config['database'];
  dataDir: string;
  /** The s3rver holding the blobs when TEST_BLOB_STORE=s3; undefined: files under dataDir/blobs. */
  s3: S3Server | undefined;
  /** The caches of the app started on `db` (startTestApp): writes made by the test through `db` empty them. */
  caches: AppCaches;
  close(): Promise<void>;
}

async function withPg<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database: a SQLite file in a temp dir, or a new PostgreSQL schema `t_<random>` (dropped
 * on close). `env` overrides the environment given to loadConfig. With TEST_BLOB_STORE=s3 in the test process's
 * environment, blobs go to an s3rver of its own (stopped on close) instead of DATA_DIR/blobs.
 */
export async function createTestDatabase(engine: Engine, env: Record<string, string> = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kyc-server-test-'));
  const s3: S3Server | undefined = process.env.TEST_BLOB_STORE === 's3' && !env.S3_BUCKET ? await startS3Server() : undefined;
  const fullEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'web-not-built'),
    ...s3?.env,
    ...env,
  };
  let schema: string | undefined;
  if (engine.databaseUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    await withPg(engine.databaseUrl, (c) => c.query(`create schema ${schema}`));
    fullEnv.DATABASE_URL = engine.databaseUrl;
    fullEnv.DATA_ENCRYPTION_KEY ??= randomBytes(32).toString('base64');
  }
  let config: Config;
  try {
    config = loadConfig(fullEnv);
  } catch (error) {
    await s3?.close();
    throw error;
  }
  const database = config.database.kind === 'postgres' ? { ...config.database, searchPath: schema } : config.database;
  const db = createDatabase(database);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy().catch(() => undefined);
    if (schema && engine.databaseUrl) {
      await withPg(engine.databaseUrl, (c) => c.query(`drop schema if exists ${schema} cascade`));
    }
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(db);
  } catch (error) {
    await close();
    throw error;
  }
  return { db, config, database, dataDir, s3, caches: new AppCaches(), close };
}

export interface TestApp extends TestDatabase {
  app: ZodApp;
}

/** The whole service (buildApp) on a fresh database, ready for app.inject. */
export async function startTestApp(engine: Engine, env: Record<string, string> = {}, options: Omit<BuildOptions, 'db' | 'caches'> = {}): Promise<TestApp> {
  const database = await createTestDatabase(engine, env);
  try {
    const app = await buildApp(database.config, { ...options, db: database.db, caches: database.caches });
    return {
      ...database,
      app,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * A second node of `first`'s service: another app with its own connection pool, engines and caches on the same
 * database (PostgreSQL: the same schema), the same data key and blob folder. Closed before `first`.
 */
export async function startSecondNode(first: TestApp, options: Omit<BuildOptions, 'db'> = {}): Promise<{ app: ZodApp; close(): Promise<void> }> {
  const db = createDatabase(first.database);
  try {
    const app = await buildApp(first.config, { ...options, db });
    return {
      app,
      async close() {
        await app.close();
        await db.destroy().catch(() => undefined);
      },
    };
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
}
