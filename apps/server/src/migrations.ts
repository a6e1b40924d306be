import type { Migration } from 'kysely';
import { featureMigrations } from './features/migrations.js';
import type { Db } from './store/db.js';
import { coreMigrations } from './store/migrations.js';
import { migrationsRun, runMigrations } from './store/migrator.js';

export { MigrationError } from './store/migrator.js';

/** Every migration of this build: the core tables and what each feature contributes. */
export const allMigrations: Record<string, Migration> = { ...coreMigrations, ...featureMigrations };

/** Runs every pending migration; throws MigrationError naming the failed migration. */
export function migrateToLatest(db: Db): Promise<string[]> {
  return runMigrations(db, allMigrations);
}

/** True when every migration known to this build has run on the database. */
export function migrationsComplete(db: Db): Promise<boolean> {
  return migrationsRun(db, allMigrations);
}
