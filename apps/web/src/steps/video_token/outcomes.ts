import { errorTexts, faceMessages } from '@kyc/contracts/texts';
import { texts } from '../../i18n/es-MX/video_token';

const faceHints = texts.hints;

/** Why an attempt of the face video did not end in a match. */
export type FaceFailure =
  /** The face-video call (or the real-time reply) answered with an error status, or 200 without a match. */
  | { kind: 'response'; status: number; message?: string | undefined; messageClient?: string | undefined }
  /** The photo sent to obtain the code was refused (otp call). status null: no response. */
  | { kind: 'token'; status: number | null; message?: string | undefined; messageClient?: string | undefined }
  /** No HTTP response (or the real-time connection dropped). */
  | { kind: 'network' }
  /** Spec §4: over 50 s without response. */
  | { kind: 'watchdog' };

/** What the 'Lo sentimos' dialog shows and what the failure does to the attempts. */
export interface FailureView {
  message: string;
  hint: string | null;
  /** Counts one attempt (docs/flow.md §8: the first seven recoverable messages do not). */
  countsAttempt: boolean;
  /** Sets the attempts straight to the maximum ('Spoof detected', or the server's own attempts-exceeded answer). */
  exhausts: boolean;
  /** Reiniciar replaces Reintentar (after a no-match). */
  restart: boolean;
}

type FaceMessageKey = keyof typeof faceMessages;

/** Spec §8: these seven 400/500 messages do not count an attempt ("the first seven recoverable messages"). */
export const recoverableFaceMessages: readonly FaceMessageKey[] = ['noFace', 'mask', 'badLight', 'blurry', 'multipleFaces', 'lowLight', 'comparisonFailed'];

function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[.\s]+$/u, '')
    .trim()
    .toLowerCase();
}

/** Which of the spec's face messages a server text is (accents, case and trailing dots ignored). */
export function faceMessageOf(text: string | undefined): FaceMessageKey | null {
  if (!text) return null;
  const wanted = normalize(text);
  for (const key of Object.keys(faceMessages) as FaceMessageKey[]) {
    const known = normalize(faceMessages[key]);
    if (wanted === known || (known.length > 8 && wanted.startsWith(known))) return key;
  }
  return null;
}

function same(text: string | undefined, expected: string): boolean {
  return text !== undefined && normalize(text) === normalize(expected);
}

function view(message: string, hint: string | null, countsAttempt: boolean, extra: Partial<FailureView> = {}): FailureView {
  return { message, hint, countsAttempt, exhausts: false, restart: false, ...extra };
}

const exhausted = (message: string): FailureView => view(message, null, true, { exhausts: true });

function faceMessageView(key: FaceMessageKey, countsAttempt: boolean): FailureView {
  const hint = key === 'phraseShort' ? faceHints.phrase : faceHints[key];
  return view(texts.messages[key === 'phraseShort' ? 'phrase' : key], hint, countsAttempt);
}

/** Spec §8's mapping of the face step's failures to the error dialog and the attempt rules. */
export function describeFailure(failure: FaceFailure): FailureView {
  switch (failure.kind) {
    case 'network':
      // No answer: the server never judged this video, so the attempt is not counted here (the server counts its own).
      return view(texts.errors.network, null, false);
    case 'watchdog':
      return view(texts.errors.watchdog, null, true);
    case 'token': {
      if (failure.status === null) return view(texts.errors.network, null, false);
      if (failure.status === 429) return exhausted(failure.messageClient ?? texts.attemptsExceeded);
      const known = faceMessageOf(failure.messageClient) ?? faceMessageOf(failure.message);
      if (known) return faceMessageView(known, false);
      if (failure.status >= 400 && failure.status < 500) return view(texts.tokenFailure, faceHints.token, false);
      return view(texts.errors.serviceUnavailable, null, false);
    }
    case 'response':
      return describeResponse(failure.status, failure.message, failure.messageClient);
  }
}

function describeResponse(status: number, message: string | undefined, messageClient: string | undefined): FailureView {
  if (same(message, errorTexts.spoofDetected) || same(messageClient, errorTexts.spoofDetected)) {
    return exhausted(texts.attemptsExceeded);
  }
  if (status === 429) return exhausted(messageClient ?? texts.attemptsExceeded);
  if (status === 200 || same(message, errorTexts.noMatch) || same(messageClient, errorTexts.noMatch) || same(messageClient, errorTexts.noMatchClient)) {
    return view(texts.errors.noMatch, null, true, { restart: true });
  }
  const known = faceMessageOf(messageClient) ?? faceMessageOf(message);
  if (known) {
    const recoverable = (status === 400 || status === 500) && recoverableFaceMessages.includes(known);
    return faceMessageView(known, !recoverable);
  }
  // 'No se encontró rostro' is the default of a 400 that names nothing.
  if (status === 400 && !messageClient && !message) return faceMessageView('noFace', false);
  if (status === 404) return view(messageClient ?? texts.errors.serviceUnavailable, faceHints.connection, true);
  return view(messageClient ?? texts.errors.serviceUnavailable, null, true);
}

/** The face video's attempts, mirrored in the browser for the dialog and the final screen; the server enforces them. */
export interface VideoAttempts {
  used: number;
  max: number;
}

export function applyFailure(attempts: VideoAttempts, failure: FailureView): VideoAttempts {
  if (failure.exhausts) return { ...attempts, used: attempts.max };
  return { ...attempts, used: Math.min(attempts.max, attempts.used + (failure.countsAttempt ? 1 : 0)) };
}

export function attemptsExhausted(attempts: VideoAttempts): boolean {
  return attempts.used >= attempts.max;
}

/**
 * Spec §9 "In the link/provider variant video attempts: 3 for the error modal and 5 for the final screen":
 * the link flow has 5 in all, and from the 3rd used attempt 'Lo sentimos' no longer retries in place.
 */
export const linkAttempts = { finalScreen: 5, errorModal: 3 } as const;

/** How many attempts a flow has, and from how many used ones the dialog sends the link flow back to /pdf_token. */
export interface AttemptRules {
  max: number;
  /** null: the dialog retries in place until the final screen (main flow). */
  restartLinkFrom: number | null;
}

export function attemptRules(flow: 'main' | 'link', intentosVideoToken: number): AttemptRules {
  return flow === 'link' ? { max: linkAttempts.finalScreen, restartLinkFrom: linkAttempts.errorModal } : { max: intentosVideoToken, restartLinkFrom: null };
}

/**
 * The main button of 'Lo sentimos' (docs/flow.md §2): Reintentar (a new attempt, camera open), Reiniciar after a no-match
 * (the step's intro), or, in the link flow once its error-modal attempts are used, Reiniciar back to the link's
 * landing page /pdf_token (a fresh start: expiry checked again, new code, full first-display delay).
 */
export type DialogAction = 'retry' | 'restartStep' | 'restartLink';

export function dialogAction(failure: FailureView, attempts: VideoAttempts, rules: AttemptRules): DialogAction {
  if (rules.restartLinkFrom !== null && attempts.used >= rules.restartLinkFrom) return 'restartLink';
  return failure.restart ? 'restartStep' : 'retry';
}
