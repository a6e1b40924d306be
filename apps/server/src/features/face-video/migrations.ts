import type { Kysely, Migration } from 'kysely';

/** The face-video codes and their digit schedules. */
export const faceVideoMigrations: Record<string, Migration> = {
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
  // The randomised digit schedule of each code (features/face-video/schedule.ts), encrypted like the code; null for
  // codes issued before it, which are judged on the spec's fixed timing.
  '0008_video_token_schedule': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('video_token_codes').addColumn('schedule_enc', 'text').execute();
    },
  },
  // The prints of accepted readings (readings-store.ts): a new video repeating one of the same holder's is a replay.
  '0034_video_token_readings': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('video_token_readings')
        .addColumn('evidence_id', 'text', (c) => c.primaryKey())
        .addColumn('uuid_trx', 'text', (c) => c.notNull().references('transactions.uuid_trx').onDelete('cascade'))
        .addColumn('grantor_id', 'text', (c) => c.notNull())
        .addColumn('print_enc', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('video_token_readings_trx_idx').on('video_token_readings').columns(['uuid_trx', 'created_at']).execute();
    },
  },
};
