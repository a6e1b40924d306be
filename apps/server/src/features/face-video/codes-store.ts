import type { DataCipher } from '../../crypto/data-cipher.js';
import { parseSchedule, type ChallengeSchedule } from './schedule.js';
import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
// Brings this feature's tables into the Database type (declaration merging; see store/schema.ts).
import type {} from './tables.js';

export interface StoredCode {
  id: string;
  uuidTrx: string;
  code: string;
  createdAt: string;
  expireAt: string;
  usedAt: string | null;
  /** Null for a code issued before schedules were stored (migration 0007). */
  schedule: ChallengeSchedule | null;
}

const context = (uuidTrx: string, id: string) => `video-token-code:${uuidTrx}:${id}`;
const scheduleContext = (uuidTrx: string, id: string) => `video-token-schedule:${uuidTrx}:${id}`;

/** Stores an issued code (encrypted: it is a secret until used). */
export async function insertCode(
  db: Db,
  cipher: DataCipher,
  code: { uuidTrx: string; grantorId: string; code: string; created: string; expire: string; schedule: ChallengeSchedule; origin: 'otp' | 'code' },
): Promise<string> {
  const id = uuidv7(Date.parse(code.created));
  await db
    .insertInto('video_token_codes')
    .values({
      id,
      uuid_trx: code.uuidTrx,
      grantor_id: code.grantorId,
      code_enc: cipher.encrypt(code.code, context(code.uuidTrx, id)),
      origin: code.origin,
      created_at: code.created,
      expire_at: code.expire,
      used_at: null,
      schedule_enc: cipher.encrypt(JSON.stringify(code.schedule), scheduleContext(code.uuidTrx, id)),
    })
    .execute();
  return id;
}

/** The code issued to the transaction with exactly these created/expire values. */
export async function findCode(db: Db, cipher: DataCipher, uuidTrx: string, created: string, expire: string): Promise<StoredCode | undefined> {
  const row = await db
    .selectFrom('video_token_codes')
    .selectAll()
    .where('uuid_trx', '=', uuidTrx)
    .where('created_at', '=', created)
    .where('expire_at', '=', expire)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    uuidTrx: row.uuid_trx,
    code: cipher.decrypt(row.code_enc, context(row.uuid_trx, row.id)),
    createdAt: row.created_at,
    expireAt: row.expire_at,
    usedAt: row.used_at,
    schedule: row.schedule_enc ? (parseSchedule(JSON.parse(cipher.decrypt(row.schedule_enc, scheduleContext(row.uuid_trx, row.id)))) ?? null) : null,
  };
}

/** Marks the code used unless it already was (atomic); true when this call used it. */
export async function useCode(db: Db, id: string, now: Date = new Date()): Promise<boolean> {
  const result = await db.updateTable('video_token_codes').set({ used_at: now.toISOString() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
