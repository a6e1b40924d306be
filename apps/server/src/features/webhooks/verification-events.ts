import { errorTexts, type GrantorParam } from '@kyc/contracts';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { finishedStep, parseLifecycleEvent } from '../events/lifecycle.js';
import { folioOf } from '../results/documents-service.js';
import { scoreOf } from '../results/facts.js';
import { enqueueWebhookEvent, type WebhookEventType } from './events.js';

export interface VerificationEnd {
  type: WebhookEventType;
  /** The lifecycle status reported (OK / FAIL at the end, INCOMPLETED when cancelled). */
  status: string;
  reason: 'finished' | 'cancelled' | 'attempts_exhausted' | 'redo_completed';
}

/**
 * Which lifecycle events end a verification for the lender (docs/flow.md §4): the finished event (status OK, or FAIL
 * for a YELLOW/RED score) completes it; a cancellation ('Cancelar proceso', status INCOMPLETED) or the failure report
 * of a retry limit abandons it. Anything else is a step of a journey still under way. Pure.
 */
export function verificationEndOf(event: { step: string; event: string }): VerificationEnd | undefined {
  const parsed = parseLifecycleEvent(event.event);
  const status = (parsed.status ?? '').toUpperCase();
  if (event.step === finishedStep || parsed.step === finishedStep) return { type: 'verification.completed', status: status || 'OK', reason: 'finished' };
  if (status === 'INCOMPLETED') return { type: 'verification.abandoned', status, reason: 'cancelled' };
  if (status === 'FAIL' && parsed.description === errorTexts.processFailure) return { type: 'verification.abandoned', status, reason: 'attempts_exhausted' };
  return undefined;
}

/**
 * Queues the webhook of a verification's end, inside the transaction that records it. A completed one carries the
 * score (semáforo and each rule's outcome) as query_score computes it at that moment; no personal data is sent
 * (the lender reads it with its secret key, keyed by the ids here).
 */
export async function announceVerificationEnd(
  db: Db,
  cipher: DataCipher,
  input: { grantorId: string; uuidTrx: string; uuidUser: string; step: string; end: VerificationEnd; params: readonly GrantorParam[] },
  now = new Date(),
): Promise<string | undefined> {
  const data: Record<string, unknown> = {
    uuidTrx: input.uuidTrx,
    uuidUser: input.uuidUser,
    folio: folioOf(input.uuidUser),
    status: input.end.status,
    reason: input.end.reason,
    step: input.step,
    at: now.toISOString(),
  };
  if (input.end.type === 'verification.completed') {
    const score = await scoreOf(db, cipher, input.uuidTrx, input.params, now);
    data.semaforo = score.flag;
    data.rules = score.rules.map((r) => ({ rule: r.rule, outcome: r.outcome }));
  }
  return enqueueWebhookEvent(db, cipher, { grantorId: input.grantorId, uuidTrx: input.uuidTrx, type: input.end.type, data }, now);
}
