import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../src/store/db.js';

/**
 * Columns that record that a credential was seen, not a change of anyone's data: a valid secret key of another
 * grantor is still "used" when its call is refused (secret-keys/store.ts touchSecretKey).
 */
const volatileColumns = new Set(['last_used_at']);

/**
 * Rows that record a refusal or a given-back attempt, not a change of anyone's data: the audit trail of refused
 * server-key calls (secret-keys/store.ts), and an attempt counter whose spent attempt was given back because the
 * upload was not a document (attempts/service.ts: nothing counted, nothing in flight). Their other columns are
 * compared as any other row.
 */
const refusalTraces: Record<string, (row: Record<string, unknown>) => boolean> = {
  server_audit_events: (row) => row.outcome === 'refused',
  transaction_attempts: (row) => Number(row.count) === 0 && Number(row.in_flight) === 0,
};

/** The database file itself changes page by page on any read-write (WAL); its rows are compared instead. */
const databaseFile = /^onboarding\.sqlite(-wal|-shm|-journal)?$/;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function canonical(row: Record<string, unknown>): string {
  const keys = Object.keys(row)
    .filter((key) => !volatileColumns.has(key))
    .sort();
  return JSON.stringify(
    keys.map((key) => {
      const value = row[key];
      if (Buffer.isBuffer(value) || value instanceof Uint8Array) return [key, Buffer.from(value).toString('hex')];
      if (value instanceof Date) return [key, value.toISOString()];
      return [key, typeof value === 'bigint' ? value.toString() : value];
    }),
  );
}

async function ownTables(db: Db): Promise<string[]> {
  const all = await db.introspection.getTables();
  // PostgreSQL lists every schema's tables; a test database is one schema of a shared server (support/app.ts).
  const current = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db).catch(() => undefined);
  const schema = current?.rows[0]?.schema;
  return all
    .filter((table) => !table.isView && (!schema || table.schema === undefined || table.schema === schema))
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

function files(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const relative = path.relative(root, full);
    if (entry.isDirectory()) files(root, full, out);
    else if (!(dir === root && databaseFile.test(entry.name))) out[`file ${relative}`] = `${statSync(full).size} ${sha256(readFileSync(full))}`;
  }
  return out;
}

/**
 * What a refused request must leave as it was: per table of the service's database its row count and a hash of
 * its rows (order-free), and every file under DATA_DIR (blobs, outboxes, keys) with its size and hash.
 */
export async function stateSnapshot(db: Db, dataDir: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of await ownTables(db)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    const kept = rows.filter((row) => !refusalTraces[table]?.(row));
    const lines = kept.map((row) => canonical(table === 'transaction_attempts' ? { ...row, updated_at: undefined } : row)).sort();
    snapshot[`table ${table}`] = `${kept.length} rows ${sha256(lines.join('\n'))}`;
  }
  return { ...snapshot, ...files(dataDir) };
}

/** The keys whose value differs between two snapshots, as readable lines. */
export function snapshotDiff(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((key) => before[key] !== after[key]).map((key) => `${key}: ${before[key] ?? '(none)'} -> ${after[key] ?? '(none)'}`);
}
