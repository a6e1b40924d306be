import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { currentSchema, type Db } from './db.js';

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/*
 * On PostgreSQL the migration tables are pinned to the current schema: unpinned, Kysely looks for them in
 * every schema and, finding another schema's copy, skips creating its own (then fails to lock).
 */
async function migratorFor(db: Db, migrations: Record<string, Migration>): Promise<Migrator> {
  const schema = await currentSchema(db);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** Runs every pending migration; throws MigrationError naming the failed migration. */
export async function runMigrations(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  const { error, results } = await migratorFor(db, migrations).then(
    (migrator) => migrator.migrateToLatest(),
    (failure: unknown) => ({ error: failure, results: undefined }),
  );
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(failed ? `Migration ${failed} failed: ${reason}` : `Migrations could not run: ${reason}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}

/** True when every migration given has run on the database. */
export async function migrationsRun(db: Db, migrations: Record<string, Migration>): Promise<boolean> {
  try {
    const all = await (await migratorFor(db, migrations)).getMigrations();
    return all.every((m) => m.executedAt !== undefined);
  } catch {
    return false;
  }
}
