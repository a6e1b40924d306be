import { errorTexts } from '@kyc/contracts';
import { lockUntilAfter } from '../../domain/transactions.js';

/**
 * Server side of docs/flow.md §4 "Lifecycle updates" and "Lockout". The flow stops sending updates once `completado` is
 * true; the server makes it a rule: after the finished event nothing re-opens the transaction, and the failure
 * report of a retry-limit ('Finalizado por reintentos', status FAIL) locks it for the spec's hour.
 */
export const finishedStep = 'finished';

export interface LifecycleState {
  /** The transaction's finished event was recorded. */
  finished: boolean;
}

export type LifecycleDecision = { kind: 'accept'; finish?: { status: string }; lockUntil?: string } | { kind: 'refuse'; reason: 'transaction_finished'; message: string };

export const lifecycleMessages = {
  finished: 'The transaction is finished: it accepts no more updates',
} as const;

/** The status / step / description of a lifecycle event's `event` JSON string (docs/flow.md §3); {} when not JSON. */
export function parseLifecycleEvent(event: string): { status?: string; step?: string; description?: string } {
  try {
    const parsed: unknown = JSON.parse(event);
    if (!parsed || typeof parsed !== 'object') return {};
    const { status, step, description } = parsed as Record<string, unknown>;
    return {
      ...(typeof status === 'string' ? { status } : {}),
      ...(typeof step === 'string' ? { step } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    };
  } catch {
    return {};
  }
}

export function decideLifecycleEvent(state: LifecycleState, event: { step: string; event: string }, now: Date): LifecycleDecision {
  if (state.finished) return { kind: 'refuse', reason: 'transaction_finished', message: lifecycleMessages.finished };
  const parsed = parseLifecycleEvent(event.event);
  const status = (parsed.status ?? '').toUpperCase();
  if (event.step === finishedStep || parsed.step === finishedStep) {
    return { kind: 'accept', finish: { status: status || 'OK' } };
  }
  if (status === 'FAIL' && parsed.description === errorTexts.processFailure) {
    return { kind: 'accept', lockUntil: lockUntilAfter(now) };
  }
  return { kind: 'accept' };
}

/** The statuses kept in clear with a lifecycle event (migration 0027); anything else is OTHER, none is ''. */
const knownStatuses = new Set(['OK', 'FAIL', 'INCOMPLETED']);

/** The status of a stored lifecycle payload (its `event` JSON string), as the funnel counts it: never free text. */
export function lifecycleStatusOf(payload: unknown): string {
  const event = payload && typeof payload === 'object' ? (payload as { event?: unknown }).event : undefined;
  const status = typeof event === 'string' ? (parseLifecycleEvent(event).status ?? '').trim().toUpperCase() : '';
  if (status === '') return '';
  return knownStatuses.has(status) ? status : 'OTHER';
}
