import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** Errors of idle pooled PostgreSQL connections (e.g. the server restarted); without a listener they crash the process. */
  onPoolError?: (error: Error) => void;
}

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

export function createDatabase(database: DatabaseConfig, options: DatabaseOptions = {}): Db {
  if (database.kind === 'sqlite') {
    ownerOnlyFile(database.file);
    const sqlite = new SQLite(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  if (database.searchPath !== undefined && !identifier.test(database.searchPath)) {
    throw new Error(`invalid PostgreSQL schema name: ${database.searchPath}`);
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    ...(database.searchPath ? { options: `-c search_path=${database.searchPath}` } : {}),
  });
  pool.on('error', (error) => options.onPoolError?.(error));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The database holds personal data: its folder is 0700 and the file 0600 (SQLite gives its -wal and -shm files
 * the database file's mode). An existing file created with a looser mode is tightened.
 */
function ownerOnlyFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small query on SQLite. Statements are
 * reused by SQL text (Kysely runs one query at a time per connection and never iterates, so sharing is safe).
 */
function withStatementCache(sqlite: SQLite.Database, maxStatements = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= maxStatements) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The schema unqualified names resolve to on PostgreSQL (first of search_path); undefined on SQLite. */
export async function currentSchema(db: Db): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}
