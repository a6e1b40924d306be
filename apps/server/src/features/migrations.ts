import type { Migration } from 'kysely';
import { consoleMigration } from './console/migrations.js';
import { faceVideoMigrations } from './face-video/migrations.js';
import { postalCatalogueMigration } from './postal/migration.js';
import { resultsMigration } from './results/migration.js';
import { smsMigration } from './sms/migration.js';

/**
 * The migrations each feature contributes. Names are global and ordered (Kysely runs them by name), so a new
 * one takes the next free number across core and features; shipped names never change.
 */
export const featureMigrations: Record<string, Migration> = {
  ...faceVideoMigrations,
  '0002_postal_catalogue': postalCatalogueMigration,
  '0005_results': resultsMigration,
  '0006_sms': smsMigration,
  // Numbered at merge time: another branch may also have taken 0009.
  '0009_console': consoleMigration,
};
