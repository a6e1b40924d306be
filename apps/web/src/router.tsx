import type { ComponentType } from 'react';
import { createBrowserRouter, type ScreenRoute } from './navigation/router';
import { MissingApikey } from './ui/AppShell';

type StepModule = Promise<{ Component: ComponentType }>;

/** A route of one journey step, its code loaded on demand. */
function step(path: string, id: string, load: () => StepModule): ScreenRoute {
  return { path, id, lazy: load };
}

/**
 * Every route of spec §2. Static paths outrank the dynamic /:apikey (navigation/match.ts ranks by segment),
 * so /pivote, /pdf_token, /terminos... are never read as an api key.
 */
export const routes: ScreenRoute[] = [
  { path: '', id: 'sin_apikey', Component: MissingApikey },
  step('terminos', 'terminos', () => import('./steps/terminos')),
  step('pasos_configuracion', 'pasos_configuracion', () => import('./steps/pasos_configuracion')),
  step('preparacion_identificacion', 'preparacion_identificacion', () => import('./steps/preparacion_identificacion')),
  step('holograma', 'holograma', () => import('./steps/holograma')),
  step('identificacion', 'identificacion', () => import('./steps/identificacion')),
  step('identificacion_edit', 'identificacion_edit', () => import('./steps/identificacion_edit')),
  step('identificacion_resultados', 'identificacion_resultados', () => import('./steps/resultados_identificacion')),
  step('resultados_identificacion', 'resultados_identificacion', () => import('./steps/resultados_identificacion')),
  step('video_token', 'video_token', () => import('./steps/video_token')),
  step('pdf_video_token', 'pdf_video_token', () => import('./steps/pdf_video_token')),
  step('consulta_historial', 'consulta_historial', () => import('./steps/consulta_historial')),
  step('error_pantalla', 'error_pantalla', () => import('./steps/error_pantalla')),
  step('validacion_documento', 'validacion_documento', () => import('./steps/validacion_documento')),
  step('autorizacion_solicitud', 'autorizacion_solicitud', () => import('./steps/autorizacion_solicitud')),
  step('autorizacion_documento', 'autorizacion_documento', () => import('./steps/autorizacion_documento')),
  step('preparacion_comprobante', 'preparacion_comprobante', () => import('./steps/preparacion_comprobante')),
  step('comprobante', 'comprobante', () => import('./steps/comprobante')),
  step('ayuda/:ruta', 'ayuda', () => import('./steps/ayuda')),
  step('finalizado', 'finalizado', () => import('./steps/finalizado')),
  step('pdf_token_instructions', 'pdf_token_instructions', () => import('./steps/pdf_token_instructions')),
  step('pdf_token_intructions', 'pdf_token_intructions', () => import('./steps/pdf_token_instructions')),
  step('pdf_token_error', 'pdf_token_error', () => import('./steps/pdf_token_error')),
  step('pdf_token_result', 'pdf_token_result', () => import('./steps/pdf_token_result')),
  step('clausula', 'clausula', () => import('./steps/clausula')),
  step('cancelar_flujo/:ruta', 'cancelar_flujo', () => import('./steps/cancelar_flujo')),
  step('pdf_token', 'pdf_token', () => import('./steps/pdf_token')),
  step('validar_movil', 'validar_movil', () => import('./steps/validar_movil')),
  step('validar_sms', 'validar_sms', () => import('./steps/validar_sms')),
  step('pivote', 'pivote', () => import('./steps/pivote')),
  step(':apikey', 'inicio', () => import('./steps/inicio')),
  { path: '*', id: 'no_encontrada', Component: MissingApikey },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
