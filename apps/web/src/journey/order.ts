import { consentAsked, type GrantorParam } from '@kyc/contracts/params';
import type { StepId } from './types';

/**
 * The journey's order as the browser follows it (the server holds the same order, docs/decisions.md "The server
 * holds the journey's order"): a screen reached out of order (a typed route, Back after a cancellation) goes to
 * the step that is due. Pure: the facts come from the session (journey/run.ts journeyFacts).
 */
export type JourneyFact = 'started' | 'terminos' | 'id' | 'clausula' | 'autorizacion' | 'face';

export interface JourneyFacts {
  /** A transaction of a grantor is under way (uuidTrx, uuidUser and the api key are stored). */
  started: boolean;
  /** terms_acepted, req_elec_acepted, request_report_acepted of data_user. */
  terminos: boolean;
  clausula: boolean;
  autorizacion: boolean;
  /** The ID front was read (ocrFront). */
  id: boolean;
  /** The face video was decided, matched or not (face). */
  face: boolean;
  apikey: string | null;
  params: readonly GrantorParam[] | null;
}

const capture: readonly JourneyFact[] = ['started', 'terminos'];
const afterId: readonly JourneyFact[] = [...capture, 'id'];
const afterFace: readonly JourneyFact[] = [...afterId, 'clausula', 'autorizacion', 'face'];

/** step → what must be done before it, in the journey's order. Steps not listed are open (entry, link flow, help). */
export const stepRequires: Partial<Record<StepId, readonly JourneyFact[]>> = {
  terminos: ['started'],
  pasos_configuracion: ['started'],
  preparacion_identificacion: capture,
  holograma: capture,
  identificacion: capture,
  error_pantalla: capture,
  resultados_identificacion: afterId,
  datos_direccion_ocr_page: afterId,
  preparacion_comprobante: afterId,
  comprobante: afterId,
  clausula: afterId,
  validacion_documento: afterId,
  autorizacion_solicitud: [...afterId, 'clausula'],
  autorizacion_documento: [...afterId, 'clausula'],
  video_token: [...afterId, 'clausula', 'autorizacion'],
  // The result, and the credit-history consent offered after it, follow the face decision.
  consulta_historial: afterFace,
  validar_movil: afterFace,
  validar_sms: afterFace,
  finalizado: afterFace,
};

/** Whether the grantor asks for the fact at all (docs/flow.md §2: a consent switched off is skipped). */
function asked(fact: JourneyFact, params: readonly GrantorParam[] | null): boolean {
  return fact === 'terminos' || fact === 'clausula' || fact === 'autorizacion' ? consentAsked(fact, params) : true;
}

function routeOf(fact: JourneyFact, facts: JourneyFacts): string {
  switch (fact) {
    case 'started':
      return facts.apikey ? `/${encodeURIComponent(facts.apikey)}` : '/';
    case 'terminos':
      return '/terminos';
    case 'id':
      return '/preparacion_identificacion';
    case 'clausula':
      return '/clausula';
    case 'autorizacion':
      return '/autorizacion_solicitud';
    case 'face':
      return '/video_token';
  }
}

/** The route of the step that is due before `step`, or null when `step` may show. */
export function dueRoute(step: string, facts: JourneyFacts): string | null {
  const needs = stepRequires[step as StepId];
  if (!needs) return null;
  const missing = needs.find((fact) => asked(fact, facts.params) && !facts[fact]);
  return missing ? routeOf(missing, facts) : null;
}
