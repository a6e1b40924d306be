/**
 * The integrator-facing view of the flow's messages: a completed verification, an error, or the person leaving.
 * The spec's status / errors / finish callbacks keep receiving the raw messages; these are the typed ones.
 */
import type { LauncherFailure } from './credentials';
import type { FlowMessage } from './messages';

export type ScoreFlag = 'GREEN' | 'YELLOW' | 'RED';

/** The journey reached its end (the result was sent, or the SMS step closed it). */
export interface CompleteResult {
  /** OK: the verification finished; FAIL: it finished without a positive result (e.g. under review). */
  result: 'OK' | 'FAIL';
  /** The flow's user id (the partner's own `uuid` when it gave one) and transaction id. */
  userId: string;
  transactionId: string;
  /** The traffic light, when the grantor sends the full result to the opener (RESULTADO_COMPLETO_OPENER). */
  flag?: ScoreFlag;
  /** The message as the flow sent it. */
  message: FlowMessage;
}

/** Something went wrong: the launcher could not start the flow, or a step of the flow failed. */
export interface FlowError {
  /** launcher: credentials, popup or network; process: a step of the flow. */
  kind: 'launcher' | 'process';
  step: string;
  /** The Spanish text shown to the person. */
  text: string;
  /** HTTP status of a launcher failure, null without an answer. */
  httpStatus?: number | null;
  message: FlowMessage | LauncherFailure;
}

/** The person left before the end: cancelled in the flow, or closed the popup. */
export interface UserExit {
  reason: 'cancelled' | 'closed';
  /** The last step the flow reported. */
  step: string | null;
  message?: FlowMessage;
}

const flags: ReadonlySet<string> = new Set(['GREEN', 'YELLOW', 'RED']);

function flagOf(data: unknown): ScoreFlag | undefined {
  const flag = typeof data === 'object' && data !== null ? (data as { flag?: unknown }).flag : undefined;
  return typeof flag === 'string' && flags.has(flag) ? (flag as ScoreFlag) : undefined;
}

export function completeResult(message: FlowMessage): CompleteResult {
  const flag = flagOf(message.data);
  return {
    result: message.result === 'OK' ? 'OK' : 'FAIL',
    userId: message.uuid ?? '',
    transactionId: message.transaccion ?? '',
    ...(flag ? { flag } : {}),
    message,
  };
}

/** A cancellation is reported by the flow as INCOMPLETED; every other non-OK message is an error. */
export function isCancellation(message: FlowMessage): boolean {
  return message.result === 'INCOMPLETED';
}

export function processError(message: FlowMessage): FlowError {
  return { kind: 'process', step: message.step, text: message.error_text ?? '', message };
}

export function launcherError(failure: LauncherFailure): FlowError {
  return { kind: 'launcher', step: failure.step, text: failure.error_text, httpStatus: failure.status, message: failure };
}
