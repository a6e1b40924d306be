// zod-free: the console app (apps/console) imports these values (re-exported by console-routes.ts).
/**
 * The console's funnel and the case file's media (issue #16): their paths under /console/api and the funnel's steps
 * in the journey's order, with the Spanish names the console shows.
 */
export const consoleInsightPaths = {
  funnel: '/console/api/funnel',
  /** The face video itself (streamed, Range requests). */
  caseVideo: '/console/api/cases/:uuidTrx/video',
  /** Evenly spaced frames of the face video as small JPEGs (data: URLs), with their times. */
  caseVideoFrames: '/console/api/cases/:uuidTrx/video/frames',
  /** The evidence bundle (documents, evidence files, manifest, time-stamp) as a zip download. */
  caseBundle: '/console/api/cases/:uuidTrx/bundle',
} as const;

/**
 * The funnel's steps, in the journey's order (docs/flow.md §4 "Main sequence"): `opened` is the transaction itself (the
 * link was opened), `video` a face video decided, the others the flow's lifecycle events of that step with status OK
 * (`finished` with any status). Optional steps (proof of address, clause, authorization, credit history) are shown only
 * when someone in the range reached them.
 */
export const consoleFunnelSteps = ['opened', 'inicio', 'terminos', 'identificacion', 'comprobante', 'clausula', 'autorizacion', 'video', 'consulta_historial', 'finished'] as const;
export type ConsoleFunnelStep = (typeof consoleFunnelSteps)[number];

export const consoleFunnelStepLabels: Record<ConsoleFunnelStep, string> = {
  opened: 'Abrió el enlace',
  inicio: 'Inicio',
  terminos: 'Términos y aviso de privacidad',
  identificacion: 'Identificación capturada',
  comprobante: 'Comprobante de domicilio',
  clausula: 'Cláusula aceptada',
  autorizacion: 'Autorización aceptada',
  video: 'Video de verificación',
  consulta_historial: 'Consulta de historial',
  finished: 'Proceso concluido',
};

/** Steps a grantor may switch off: left out of the funnel when nobody in the range reached them. */
export const consoleOptionalFunnelSteps: readonly ConsoleFunnelStep[] = ['inicio', 'terminos', 'comprobante', 'clausula', 'autorizacion', 'consulta_historial'];
