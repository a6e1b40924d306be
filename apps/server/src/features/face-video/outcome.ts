/**
 * What a face-video result means for the caller and for the attempts (docs/flow.md §8): the recoverable capture messages
 * do not count an attempt, a no-match or an unread phrase counts one, a spoof uses them all at once (the effect is
 * applied by attempts/service.ts). Pure.
 */
import { errorTexts, faceMessages } from '@kyc/contracts';
import type { AttemptEffect } from '../../domain/attempts.js';
import { refusal, type Refusal } from '../../domain/refusal.js';

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

/** The refusal of a failed outcome (the attempts-exhausted refusal takes precedence when the outcome used the last attempt, see decideVideoToken). */
export function failureRefusal(outcome: Exclude<VideoTokenOutcome, { kind: 'match' }>): Refusal {
  switch (outcome.kind) {
    case 'capture_problem':
      return refusal('face_capture_problem', outcome.message, outcome.message);
    case 'no_match':
      return refusal('face_no_match', errorTexts.noMatch);
    case 'not_live':
      return refusal('face_not_live', faceMessages.phrase, faceMessages.phrase);
    case 'spoof':
      return refusal('face_spoof', errorTexts.spoofDetected);
    case 'refused_source':
      return refusal('video_source_refused', `Video source refused: ${outcome.detail}`);
  }
}

export const exhaustedRefusal: Refusal = refusal('attempts_exhausted', 'Attempts exhausted');
