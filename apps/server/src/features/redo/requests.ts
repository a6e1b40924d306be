import type { ConsoleRedo, ConsoleRedoChannel, ConsoleRedoStep, GrantorParam } from '@kyc/contracts';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { evidenceKind, type PhoneVerification } from '../../domain/evidence-kinds.js';
import { enqueueJob } from '../../jobs/queue.js';
import type { Db } from '../../store/db.js';
import { latestEvidence } from '../../store/evidence.js';
import { uuidv7 } from '../../store/ids.js';
import { audit } from '../console/store.js';
import { folioOf } from '../results/documents-service.js';
import { scoreOf } from '../results/facts.js';
import { announceVerificationEnd } from '../webhooks/verification-events.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { redoNoticeJobKind, type RedoNotice } from './notice.js';
import type {} from './tables.js';

const noteContext = (id: string) => `redo-request-note:${id}`;
const resultEmailContext = (uuidTrx: string) => `result_emails:${uuidTrx}`;

/** Where a redo link can go for a case: the result e-mail's one address, the newest SMS-verified mobile number. */
export async function redoContacts(db: Db, cipher: DataCipher, uuidTrx: string): Promise<{ email?: string; sms?: string }> {
  const [mail, phone] = await Promise.all([
    db.selectFrom('result_emails').select('recipient_enc').where('uuid_trx', '=', uuidTrx).executeTakeFirst(),
    latestEvidence(db, cipher, uuidTrx, evidenceKind.phoneVerified),
  ]);
  const verified = phone?.payload as PhoneVerification | undefined;
  return {
    ...(mail ? { email: cipher.decrypt(mail.recipient_enc, resultEmailContext(uuidTrx)) } : {}),
    ...(verified ? { sms: `+${verified.areaCode}${verified.number}` } : {}),
  };
}

export function channelsOf(contacts: { email?: string; sms?: string }): ConsoleRedoChannel[] {
  return (['email', 'sms'] as const).filter((c) => contacts[c] !== undefined);
}

/** The newest redo of a case as the console shows it (an unused link past its expiry shows as expired). */
export async function latestRedo(db: Db, cipher: DataCipher, uuidTrx: string, now: Date = new Date()): Promise<ConsoleRedo | undefined> {
  const row = await db
    .selectFrom('redo_requests as r')
    .leftJoin('console_users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.step', 'r.reason', 'r.note_enc', 'r.channels', 'r.state', 'r.expires_at', 'r.created_at', 'r.completed_at', 'u.email'])
    .where('r.uuid_trx', '=', uuidTrx)
    .orderBy('r.id', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const expired = row.state === 'pending' && Date.parse(row.expires_at) <= now.getTime();
  return {
    step: row.step as ConsoleRedoStep,
    reason: row.reason,
    note: cipher.decrypt(row.note_enc, noteContext(row.id)),
    reviewer: row.email ?? '',
    channels: JSON.parse(row.channels) as ConsoleRedoChannel[],
    at: row.created_at,
    expiresAt: row.expires_at,
    state: expired ? 'expired' : row.state,
    completedAt: row.completed_at,
  };
}

/** Whether the case has a redo whose link still works. */
export async function hasPendingRedo(db: Db, uuidTrx: string, now: Date = new Date()): Promise<boolean> {
  const row = await db.selectFrom('redo_requests').select('id').where('uuid_trx', '=', uuidTrx).where('state', '=', 'pending').where('expires_at', '>', now.toISOString()).executeTakeFirst();
  return row !== undefined;
}

export interface RedoInput {
  redoId: string;
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  grantorName: string;
  userId: string;
  ip: string;
  step: ConsoleRedoStep;
  reason: string;
  note: string;
  /** Each channel with its address; only these are notified. */
  contacts: { channel: ConsoleRedoChannel; to: string }[];
  expiresAt: Date;
  /** The link the customer opens (with its credential). */
  url: string;
  flag: string;
}

export const newRedoId = (now: Date) => uuidv7(now.getTime());

/**
 * Records a redo, marks the case `redo_requested` in the list, audits it, queues `review.decided` (decision `redo`
 * and the step) and the notices, all in one database transaction: nothing is sent unless the request is committed.
 */
export async function recordRedo(db: Db, cipher: DataCipher, input: RedoInput, now: Date = new Date()): Promise<{ eventId?: string | undefined }> {
  return db.transaction().execute(async (tx) => {
    const at = now.toISOString();
    const channels = input.contacts.map((c) => c.channel);
    await tx
      .insertInto('redo_requests')
      .values({
        id: input.redoId,
        uuid_trx: input.uuidTrx,
        uuid_user: input.uuidUser,
        grantor_id: input.grantorId,
        user_id: input.userId,
        step: input.step,
        reason: input.reason,
        note_enc: cipher.encrypt(input.note, noteContext(input.redoId)),
        channels: JSON.stringify(channels),
        state: 'pending',
        expires_at: input.expiresAt.toISOString(),
        created_at: at,
        completed_at: null,
      })
      .execute();
    await setCaseDecision(tx, input, { decision: 'redo', reason: input.reason }, at);
    // The note is not audited nor sent: it is free text and may name the person.
    const detail = { uuidTrx: input.uuidTrx, redoId: input.redoId, decision: 'redo', reason: input.reason, step: input.step, channels };
    await audit(tx, { action: 'case_reviewed', userId: input.userId, grantorId: input.grantorId, ip: input.ip, detail }, now);
    for (const contact of input.contacts) {
      const notice: RedoNotice = {
        redoId: input.redoId,
        uuidTrx: input.uuidTrx,
        grantorName: input.grantorName,
        step: input.step,
        channel: contact.channel,
        to: contact.to,
        url: input.url,
        expiresAt: input.expiresAt.getTime(),
      };
      await enqueueJob(tx, cipher, { kind: redoNoticeJobKind, uuidTrx: input.uuidTrx, payload: notice }, now);
    }
    const data = {
      uuidTrx: input.uuidTrx,
      uuidUser: input.uuidUser,
      folio: folioOf(input.uuidUser),
      reviewId: input.redoId,
      decision: 'redo',
      reason: input.reason,
      step: input.step,
      channels,
      expiresAt: input.expiresAt.toISOString(),
      semaforo: input.flag,
      at,
    };
    return { eventId: await enqueueWebhookEvent(tx, cipher, { grantorId: input.grantorId, uuidTrx: input.uuidTrx, type: 'review.decided', data }, now) };
  });
}

async function setCaseDecision(db: Db, c: { uuidTrx: string; grantorId: string; flag: string }, decision: { decision: string | null; reason: string | null }, at: string) {
  const values = { flag: c.flag, review_decision: decision.decision, review_reason: decision.reason, updated_at: at };
  await db
    .insertInto('console_cases')
    .values({ uuid_trx: c.uuidTrx, grantor_id: c.grantorId, holder_name_enc: null, ...values })
    .onConflict((oc) => oc.column('uuid_trx').doUpdateSet(values))
    .execute();
}

/** A final decision withdraws a pending redo: its link is refused from then on. */
export async function cancelPendingRedo(db: Db, uuidTrx: string): Promise<void> {
  await db.updateTable('redo_requests').set({ state: 'cancelled' }).where('uuid_trx', '=', uuidTrx).where('state', '=', 'pending').execute();
}

export interface CompletedRedo {
  redoId: string;
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  step: ConsoleRedoStep;
  params: readonly GrantorParam[];
}

/**
 * The customer finished the step: the link is used up (one caller wins, even across nodes), the case goes back to
 * review with the colour scored now (the new evidence counts), and `verification.completed` is queued again with
 * reason `redo_completed` and the score, all in one database transaction. False when the link was used meanwhile.
 */
export async function completeRedo(db: Db, cipher: DataCipher, redo: CompletedRedo, now: Date = new Date()): Promise<boolean> {
  const flag = (await scoreOf(db, cipher, redo.uuidTrx, redo.params, now)).flag;
  return db.transaction().execute(async (tx) => {
    const at = now.toISOString();
    const done = await tx.updateTable('redo_requests').set({ state: 'completed', completed_at: at }).where('id', '=', redo.redoId).where('state', '=', 'pending').executeTakeFirst();
    if ((done.numUpdatedRows ?? 0n) === 0n) return false;
    await setCaseDecision(tx, { ...redo, flag }, { decision: null, reason: null }, at);
    await announceVerificationEnd(
      tx,
      cipher,
      {
        grantorId: redo.grantorId,
        uuidTrx: redo.uuidTrx,
        uuidUser: redo.uuidUser,
        step: `redo:${redo.step}`,
        end: { type: 'verification.completed', status: 'OK', reason: 'redo_completed' },
        params: redo.params,
      },
      now,
    );
    return true;
  });
}
