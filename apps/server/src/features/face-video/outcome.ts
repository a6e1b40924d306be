/**
 * What a face-video result means for the caller and for the attempts (docs/flow.md §8): the recoverable capture messages
 * do not count an attempt, a no-match or an unread phrase counts one, a spoof uses them all at once (the effect is
 * applied by attempts/service.ts). Pure.
 */
import { errorTexts, faceMessages } from '@kyc/contracts';
import type { AttemptEffect } from '../../domain/attempts.js';

/** The recoverable messages (docs/flow.md §8 lists seven; this project's set, see docs/decisions.md). */
export const recoverableFaceMessages: ReadonlySet<string> = new Set([
  faceMessages.noFace,
  faceMessages.mask,
  faceMessages.badLight,
  faceMessages.blurry,
  faceMessages.multipleFaces,
  faceMessages.lowLight,
  faceMessages.comparisonFailed,
]);

export type VideoTokenOutcome =
  | { kind: 'match' }
  | { kind: 'capture_problem'; message: string; detail: string }
  | { kind: 'no_match'; detail: string }
  | { kind: 'not_live'; detail: string }
  | { kind: 'spoof'; detail: string }
  /** The source is refused by the grantor's parameters (a virtual camera, a file no browser recorded): an attempt. */
  | { kind: 'refused_source'; detail: string };

export function attemptEffect(outcome: VideoTokenOutcome): AttemptEffect {
  switch (outcome.kind) {
    case 'match':
      return 'none';
    case 'capture_problem':
      return recoverableFaceMessages.has(outcome.message) ? 'none' : 'count';
    case 'spoof':
      return 'exhaust';
    default:
      return 'count';
  }
}

export interface FailureReply {
  status: number;
  message: string;
  message_client?: string;
}

/** The error reply of a failed outcome (the attempts-exhausted reply takes precedence when the outcome used the last attempt, see decideVideoToken). */
export function failureReply(outcome: Exclude<VideoTokenOutcome, { kind: 'match' }>): FailureReply {
  switch (outcome.kind) {
    case 'capture_problem':
      return { status: 400, message: outcome.message, message_client: outcome.message };
    case 'no_match':
      return { status: 400, message: errorTexts.noMatch, message_client: errorTexts.noMatchClient };
    case 'not_live':
      return { status: 400, message: faceMessages.phrase, message_client: faceMessages.phrase };
    case 'spoof':
      return { status: 404, message: errorTexts.spoofDetected, message_client: errorTexts.attemptsExceeded };
    case 'refused_source':
      return { status: 400, message: `Video source refused: ${outcome.detail}`, message_client: errorTexts.watchdog };
  }
}

export const exhaustedReply: FailureReply = { status: 429, message: 'Attempts exhausted', message_client: errorTexts.attemptsExceeded };
