import type { Migration } from 'kysely';
import { eventCountsMigration } from './events/migration.js';
import { consoleMigration } from './console/migrations.js';
import { consoleFunnelDaysMigration, consoleFunnelMigration, outcomesFinishedIndexMigration } from './console/funnel-migration.js';
import { consoleReviewsMigration } from './console/review-migration.js';
import { faceVideoMigrations } from './face-video/migrations.js';
import { postalCatalogueMigration } from './postal/migration.js';
import { redoRequestsMigration } from './redo/migration.js';
import { resultEmailsMigration, resultsMigration } from './results/migration.js';
import { retentionMigration } from './retention/migrations.js';
import { smsMigration } from './sms/migration.js';
import { webhookEndpointEventsMigration } from './webhooks/events-migration.js';
import { webhookQueueMigration, webhooksMigration } from './webhooks/migrations.js';

/**
 * The migrations each feature contributes. Names are global and ordered (Kysely runs them by name), so a new
 * one takes the next free number across core and features; shipped names never change.
 */
export const featureMigrations: Record<string, Migration> = {
  ...faceVideoMigrations,
  '0002_postal_catalogue': postalCatalogueMigration,
  '0005_results': resultsMigration,
  '0006_sms': smsMigration,
  '0009_event_counts': eventCountsMigration,
  '0010_result_emails': resultEmailsMigration,
  '0012_console': consoleMigration,
  '0018_webhooks': webhooksMigration,
  '0019_console_reviews': consoleReviewsMigration,
  '0022_retention': retentionMigration,
  '0023_webhook_queue': webhookQueueMigration,
  '0024_webhook_endpoint_events': webhookEndpointEventsMigration,
  '0027_console_funnel': consoleFunnelMigration,
  '0028_outcomes_finished_idx': outcomesFinishedIndexMigration,
  '0029_redo_requests': redoRequestsMigration,
  '0030_console_funnel_days': consoleFunnelDaysMigration,
};
