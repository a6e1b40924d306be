import type { ComponentType } from 'react';
import type { CancelConfirmed, Enter, FaceVideoEvent, FinishEvent, IdCaptureEvent, ProofCaptureEvent, TermsAcceptance } from '../journey/events';
import type { IdSide } from '../session/idCapture';

/**
 * The step table: every screen of the flow, once. A row's key is the step's id (the journey's and the spec's name
 * for it); `paths` are its routes (docs/flow.md §2; the first is the one the journey navigates to, the others are aliases);
 * `screen` loads its folder's module on demand; `events` is the type of what the screen reports to the journey
 * (journey/journey.ts has one handler per row that has events). The router (router.tsx) and `StepId`
 * (journey/types.ts) are derived from this table. A new step is a folder under steps/ and one row here.
 */
interface StepRow {
  paths: readonly string[];
  screen: () => Promise<{ Component: ComponentType }>;
  events?: Events<unknown>;
}

declare const eventType: unique symbol;
/** A step's event type, carried by the table for the type checker only (an empty object at run time). */
export interface Events<E> {
  readonly [eventType]?: E;
}
const on = <E>(): Events<E> => ({});

type Accept = { type: 'accept'; acceptance: TermsAcceptance };

export const steps = {
  inicio: {
    paths: [':apikey'],
    screen: () => import('./inicio'),
    events: on<Enter | { type: 'start' } | { type: 'help' }>(),
  },
  terminos: { paths: ['terminos'], screen: () => import('./terminos'), events: on<Enter | Accept>() },
  pasos_configuracion: { paths: ['pasos_configuracion'], screen: () => import('./pasos_configuracion'), events: on<Enter>() },
  preparacion_identificacion: {
    paths: ['preparacion_identificacion'],
    screen: () => import('./preparacion_identificacion'),
    events: on<{ type: 'capture' } | CancelConfirmed>(),
  },
  holograma: {
    paths: ['holograma'],
    screen: () => import('./holograma'),
    events: on<{ type: 'calibrated' } | { type: 'timedOut' } | { type: 'skipped' } | { type: 'cancel' }>(),
  },
  identificacion: { paths: ['identificacion'], screen: () => import('./identificacion'), events: on<IdCaptureEvent>() },
  error_pantalla: {
    paths: ['error_pantalla'],
    screen: () => import('./error_pantalla'),
    events: on<{ type: 'recapture'; passport: boolean; side?: IdSide } | { type: 'cancel' }>(),
  },
  resultados_identificacion: {
    paths: ['resultados_identificacion', 'identificacion_resultados'],
    screen: () => import('./resultados_identificacion'),
    events: on<{ type: 'confirmed'; typed?: readonly string[] } | { type: 'recapture'; passport: boolean } | { type: 'terminate' }>(),
  },
  /** The address form: the spec's step name, served at /identificacion_edit. */
  datos_direccion_ocr_page: {
    paths: ['identificacion_edit'],
    screen: () => import('./identificacion_edit'),
    events: on<{ type: 'saved' }>(),
  },
  clausula: { paths: ['clausula'], screen: () => import('./clausula'), events: on<Enter | { type: 'read' } | CancelConfirmed>() },
  validacion_documento: {
    paths: ['validacion_documento'],
    screen: () => import('./validacion_documento'),
    events: on<Accept | { type: 'acknowledgeLockout' }>(),
  },
  autorizacion_solicitud: {
    paths: ['autorizacion_solicitud'],
    screen: () => import('./autorizacion_solicitud'),
    events: on<{ type: 'read' } | CancelConfirmed>(),
  },
  autorizacion_documento: {
    paths: ['autorizacion_documento'],
    screen: () => import('./autorizacion_documento'),
    events: on<Accept | { type: 'acknowledgeLockout' }>(),
  },
  video_token: { paths: ['video_token'], screen: () => import('./video_token'), events: on<FaceVideoEvent>() },
  /** restartLink: 'Lo sentimos' once the link flow's error-modal attempts are used (docs/flow.md §9): back to /pdf_token. */
  pdf_video_token: {
    paths: ['pdf_video_token'],
    screen: () => import('./pdf_video_token'),
    events: on<FaceVideoEvent | { type: 'restartLink' }>(),
  },
  preparacion_comprobante: {
    paths: ['preparacion_comprobante'],
    screen: () => import('./preparacion_comprobante'),
    events: on<{ type: 'capture'; ruta?: string | null } | CancelConfirmed>(),
  },
  comprobante: { paths: ['comprobante'], screen: () => import('./comprobante'), events: on<ProofCaptureEvent>() },
  consulta_historial: {
    paths: ['consulta_historial'],
    screen: () => import('./consulta_historial'),
    events: on<Accept | CancelConfirmed>(),
  },
  validar_movil: {
    paths: ['validar_movil'],
    screen: () => import('./validar_movil'),
    events: on<{ type: 'sent'; phone: string } | CancelConfirmed>(),
  },
  validar_sms: {
    paths: ['validar_sms'],
    screen: () => import('./validar_sms'),
    events: on<{ type: 'verified'; phone: string } | { type: 'missingPhone' } | CancelConfirmed>(),
  },
  /** linkRefused: the server says the link was already consulted or expired (before any camera step). */
  /** A review's redo link (issue #16): one step of a finished case again, outside the journey (no events). */
  repetir: { paths: ['repetir'], screen: () => import('./repetir') },
  pdf_token: {
    paths: ['pdf_token'],
    screen: () => import('./pdf_token'),
    events: on<Enter | { type: 'continue' } | { type: 'linkRefused'; reason: 'consumed' | 'expired' }>(),
  },
  /** The link flow's instructions; its CONTINUAR reports as pdf_token's. 'intructions' is the spec's misspelt alias. */
  pdf_token_instructions: {
    paths: ['pdf_token_instructions', 'pdf_token_intructions'],
    screen: () => import('./pdf_token_instructions'),
  },
  pdf_token_error: { paths: ['pdf_token_error'], screen: () => import('./pdf_token_error') },
  pdf_token_result: {
    paths: ['pdf_token_result'],
    screen: () => import('./pdf_token_result'),
    events: on<{ type: 'downloadFailed' }>(),
  },
  finalizado: { paths: ['finalizado'], screen: () => import('./finalizado'), events: on<FinishEvent>() },
  ayuda: { paths: ['ayuda/:ruta'], screen: () => import('./ayuda'), events: on<{ type: 'close'; ruta: string }>() },
  cancelar_flujo: {
    paths: ['cancelar_flujo/:ruta'],
    screen: () => import('./cancelar_flujo'),
    events: on<{ type: 'reopen'; ruta: string } | { type: 'restart' }>(),
  },
  /** The launcher demo page (a partner page), not a step of the journey. */
  pivote: { paths: ['pivote'], screen: () => import('./pivote') },
} as const satisfies Record<string, StepRow>;

export type StepTable = typeof steps;
/** The rows that report events to the journey. */
export type JourneyStepId = { [K in keyof StepTable]: StepTable[K] extends { events: Events<unknown> } ? K : never }[keyof StepTable];
export type EventsOf<K extends JourneyStepId> = StepTable[K] extends { events: Events<infer E> } ? E : never;
