import type { ConsoleReview, ConsoleReviewDecision } from '@kyc/contracts';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
import { folioOf } from '../results/documents-service.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { cancelPendingRedo } from '../redo/requests.js';
import { audit } from './store.js';
import type {} from './tables.js';

const noteContext = (id: string) => `console-review-note:${id}`;

/** The case's review, with the reviewer's e-mail and the note decrypted. */
export async function reviewOf(db: Db, cipher: DataCipher, uuidTrx: string): Promise<ConsoleReview | undefined> {
  const row = await db
    .selectFrom('console_reviews as r')
    .leftJoin('console_users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.decision', 'r.reason', 'r.note_enc', 'r.created_at', 'u.email'])
    .where('r.uuid_trx', '=', uuidTrx)
    .executeTakeFirst();
  if (!row) return undefined;
  return { decision: row.decision as ConsoleReviewDecision, reason: row.reason, note: cipher.decrypt(row.note_enc, noteContext(row.id)), reviewer: row.email ?? '', at: row.created_at };
}

export interface ReviewInput {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  userId: string;
  ip: string;
  decision: ConsoleReviewDecision;
  reason: string;
  note: string;
  /** The case's score flag, kept on the case index with the decision. */
  flag: string;
}

/**
 * Records the decision, marks the case reviewed in the list, audits it and queues `review.decided`, all in one
 * database transaction: the webhook is queued exactly when the decision is committed. False when the case was
 * already reviewed (one decision per case; nothing is changed then).
 */
export async function recordReview(db: Db, cipher: DataCipher, input: ReviewInput, now: Date = new Date()): Promise<{ reviewed: boolean; eventId?: string | undefined }> {
  return db.transaction().execute(async (tx) => {
    const id = uuidv7(now.getTime());
    const at = now.toISOString();
    const inserted = await tx
      .insertInto('console_reviews')
      .values({
        id,
        uuid_trx: input.uuidTrx,
        grantor_id: input.grantorId,
        user_id: input.userId,
        decision: input.decision,
        reason: input.reason,
        note_enc: cipher.encrypt(input.note, noteContext(id)),
        created_at: at,
      })
      .onConflict((oc) => oc.column('uuid_trx').doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return { reviewed: false };
    // A final decision withdraws a redo still pending: its link is refused from now on.
    await cancelPendingRedo(tx, input.uuidTrx);
    await tx
      .insertInto('console_cases')
      .values({ uuid_trx: input.uuidTrx, grantor_id: input.grantorId, holder_name_enc: null, flag: input.flag, review_decision: input.decision, review_reason: input.reason, updated_at: at })
      .onConflict((oc) => oc.column('uuid_trx').doUpdateSet({ flag: input.flag, review_decision: input.decision, review_reason: input.reason, updated_at: at }))
      .execute();
    // The note is not audited nor sent: it is free text and may name the person.
    await audit(
      tx,
      { action: 'case_reviewed', userId: input.userId, grantorId: input.grantorId, ip: input.ip, detail: { uuidTrx: input.uuidTrx, reviewId: id, decision: input.decision, reason: input.reason } },
      now,
    );
    const eventId = await enqueueWebhookEvent(
      tx,
      cipher,
      {
        grantorId: input.grantorId,
        uuidTrx: input.uuidTrx,
        type: 'review.decided',
        data: { uuidTrx: input.uuidTrx, uuidUser: input.uuidUser, folio: folioOf(input.uuidUser), reviewId: id, decision: input.decision, reason: input.reason, semaforo: input.flag, at },
      },
      now,
    );
    return { reviewed: true, eventId };
  });
}
