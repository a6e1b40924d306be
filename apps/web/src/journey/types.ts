import type { ProofReadingWire } from '@kyc/contracts';
import type { GrantorParam } from '@kyc/contracts/params';
import type { IdSide } from '../session/idCapture';
import type { OpenerMessage } from '../session/popup';

/** Journey steps: route names of spec §2, plus the address step's id (served at /identificacion_edit). */
export type StepId =
  | 'inicio'
  | 'terminos'
  | 'pasos_configuracion'
  | 'preparacion_identificacion'
  | 'holograma'
  | 'identificacion'
  | 'error_pantalla'
  | 'resultados_identificacion'
  | 'datos_direccion_ocr_page'
  | 'clausula'
  | 'validacion_documento'
  | 'autorizacion_solicitud'
  | 'autorizacion_documento'
  | 'video_token'
  | 'pdf_video_token'
  | 'preparacion_comprobante'
  | 'comprobante'
  | 'consulta_historial'
  | 'validar_movil'
  | 'validar_sms'
  | 'pdf_token'
  | 'pdf_token_result'
  | 'finalizado'
  | 'ayuda'
  | 'cancelar_flujo';

/** What the user accepted on a consent (/terminos, the clause, the authorization), recorded as the audit event's dato. */
export interface TermsAcceptance {
  version: string;
  /** SHA-256 (hex) of the exact text shown and accepted. */
  sha256: string;
  userAgent: string;
}

type Enter = { type: 'enter' };
type CancelConfirmed = { type: 'cancelConfirmed'; ruta?: string | null };
type FaceVideoEvent =
  | { type: 'matched' }
  | { type: 'abandon' }
  | CancelConfirmed
  /** The browser cannot record (no MediaRecorder): the Safari setup steps. */
  | { type: 'recorderUnsupported' }
  | { type: 'attemptsExhausted' }
  | { type: 'acknowledgeFailure' };

/** The events each step may report. The type system rejects an event a step does not know. */
export interface StepEvents {
  inicio: Enter | { type: 'start' } | { type: 'help' };
  terminos: Enter | { type: 'accept'; acceptance: TermsAcceptance };
  pasos_configuracion: Enter;
  preparacion_identificacion: { type: 'capture' } | CancelConfirmed;
  holograma: { type: 'calibrated' } | { type: 'timedOut' } | { type: 'skipped' } | { type: 'cancel' };
  identificacion:
    | { type: 'frontRead'; passport: boolean }
    | { type: 'backRead' }
    | { type: 'readFailed'; side: IdSide; passport: boolean; message: string }
    | { type: 'attemptsExhausted' }
    | { type: 'acknowledgeFailure' }
    | { type: 'cancel' };
  error_pantalla: { type: 'recapture'; passport: boolean; side?: IdSide } | { type: 'cancel' };
  resultados_identificacion: { type: 'confirmed' } | { type: 'recapture'; passport: boolean } | { type: 'terminate' };
  datos_direccion_ocr_page: { type: 'saved' };
  clausula: Enter | { type: 'read' } | CancelConfirmed;
  validacion_documento: { type: 'accept'; acceptance: TermsAcceptance } | { type: 'acknowledgeLockout' };
  autorizacion_solicitud: { type: 'read' } | CancelConfirmed;
  autorizacion_documento: { type: 'accept'; acceptance: TermsAcceptance } | { type: 'acknowledgeLockout' };
  video_token: FaceVideoEvent;
  /** restartLink: 'Lo sentimos' once the link flow's error-modal attempts are used (spec §9): back to /pdf_token. */
  pdf_video_token: FaceVideoEvent | { type: 'restartLink' };
  preparacion_comprobante: { type: 'capture'; ruta?: string | null } | CancelConfirmed;
  comprobante: { type: 'read'; lectura: ProofReadingWire } | { type: 'attemptsExhausted' } | { type: 'acknowledge' } | CancelConfirmed;
  consulta_historial: { type: 'accept'; acceptance: TermsAcceptance } | CancelConfirmed;
  validar_movil: { type: 'sent'; phone: string } | CancelConfirmed;
  validar_sms: { type: 'verified'; phone: string } | { type: 'missingPhone' } | CancelConfirmed;
  pdf_token: Enter | { type: 'continue' };
  pdf_token_result: { type: 'downloadFailed' };
  /** data: the full result (score, links...), put in the opener message only when RESULTADO_COMPLETO_OPENER is on. */
  finalizado: { type: 'sent'; result: 'OK' | 'FAIL'; data?: unknown } | { type: 'continue' } | { type: 'acknowledge' };
  ayuda: { type: 'close'; ruta: string };
  cancelar_flujo: { type: 'reopen'; ruta: string } | { type: 'restart' };
}

export type JourneyEvent<S extends StepId = StepId> = StepEvents[S];

/** Grantor parameters and session facts the transitions depend on. */
export interface JourneyContext {
  params: readonly GrantorParam[] | null;
  /** apikeyOtorgante: the entry route is /{apikey}. */
  apikey: string | null;
  uuidUser: string | null;
  uuidTrx: string | null;
  idOtorgante: string | null;
  /** Result-link expiry (epoch ms), stored by /pdf_token. */
  fechavigencia: string | null;
  /** Opened by a partner page (window.opener). */
  isPopup: boolean;
  mediaRecorderSupported: boolean;
  /** Epoch ms. */
  now: number;
}

/** Side effects a transition asks the runner to perform before waiting delayMs. */
export type Effect =
  | { kind: 'lifecycle'; step: string; status: string; description: string }
  | { kind: 'audit'; paso: string; tipo: string; dato: string }
  | { kind: 'opener'; message: OpenerMessage }
  | { kind: 'userDatum'; description: string; value: string }
  /** Close the popup when the delay ends; the runner navigates to route if the window stays open. */
  | { kind: 'closeWindow' }
  /** completado = 'true': spec §4 "Reporting after a retry-limit ends sets completado to true" (no more lifecycle updates). */
  | { kind: 'markCompleted' };

export interface Transition {
  /** Next route (path plus query), or null to stay on the current screen. */
  route: string | null;
  delayMs: number;
  /** Replace the history entry (redirects), so Back does not bounce. */
  replace?: boolean;
  /** Router location state for the next screen (e.g. passport). */
  state?: Record<string, unknown>;
  effects?: Effect[];
}
