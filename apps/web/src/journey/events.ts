import type { ProofReadingWire } from '@kyc/contracts';
import type { IdSide } from '../session/idCapture';

/** What the user accepted on a consent (/terminos, the clause, the authorization), recorded as the audit event's dato. */
export interface TermsAcceptance {
  version: string;
  /** SHA-256 (hex) of the exact text shown and accepted. */
  sha256: string;
  userAgent: string;
}

/** The events steps report to the journey; steps/table.ts says which step reports which. */
export type Enter = { type: 'enter' };
export type CancelConfirmed = { type: 'cancelConfirmed'; ruta?: string | null };
export type FaceVideoEvent =
  | { type: 'matched' }
  | { type: 'abandon' }
  | CancelConfirmed
  /** The browser cannot record (no MediaRecorder): the Safari setup steps. */
  | { type: 'recorderUnsupported' }
  | { type: 'attemptsExhausted' }
  | { type: 'acknowledgeFailure' };

export type IdCaptureEvent =
  | { type: 'frontRead'; passport: boolean }
  | { type: 'backRead' }
  | { type: 'readFailed'; side: IdSide; passport: boolean; message: string }
  | { type: 'attemptsExhausted' }
  | { type: 'acknowledgeFailure' }
  | { type: 'cancel' };

export type ProofCaptureEvent = { type: 'read'; lectura: ProofReadingWire } | { type: 'attemptsExhausted' } | { type: 'acknowledge' } | CancelConfirmed;

/** data: the full result (score, links...), put in the opener message only when RESULTADO_COMPLETO_OPENER is on. */
export type FinishEvent = { type: 'sent'; result: 'OK' | 'FAIL'; data?: unknown } | { type: 'continue' } | { type: 'acknowledge' };
