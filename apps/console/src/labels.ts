import type { ConsoleCase, ConsoleCaseStatus, ConsoleDeliveryStatus, ConsoleReviewDecision, ConsoleRole } from '@kyc/contracts';

export const statusLabels: Record<ConsoleCaseStatus, string> = {
  in_progress: 'En curso',
  abandoned: 'Abandonado',
  finished: 'Finalizado, sin calificar',
  GREEN: 'Verde',
  YELLOW: 'Amarillo',
  RED: 'Rojo',
  reviewed: 'Revisado',
  redo_requested: 'Repetición solicitada',
};

export const decisionLabels: Record<ConsoleReviewDecision, string> = { approve: 'Aprobado', reject: 'Rechazado' };

export { consoleReviewReasonLabels as reasonLabels } from '@kyc/contracts/console-routes';

export const roleLabels: Record<ConsoleRole, string> = {
  admin: 'Administración',
  reviewer: 'Revisión',
  viewer: 'Consulta',
  operator: 'Operación de la plataforma',
};

/** The flow's step ids as people read them. */
const stepLabels: Record<string, string> = {
  inicio: 'inicio',
  terminos: 'términos y aviso de privacidad',
  pasos_configuracion: 'preparación',
  preparacion_identificacion: 'preparación de la identificación',
  holograma: 'holograma',
  identificacion: 'identificación',
  resultados_identificacion: 'datos de la identificación',
  datos_direccion_ocr_page: 'domicilio',
  clausula: 'cláusula',
  validacion_documento: 'validación del documento',
  autorizacion_solicitud: 'autorización',
  autorizacion_documento: 'documento de autorización',
  video_token: 'video de verificación',
  pdf_video_token: 'video de verificación',
  preparacion_comprobante: 'preparación del comprobante',
  comprobante: 'comprobante de domicilio',
  consulta_historial: 'consulta de historial',
  validar_movil: 'validación del móvil',
  validar_sms: 'código SMS',
  finalizado: 'fin',
  finished: 'fin',
};

export function statusText(c: Pick<ConsoleCase, 'status' | 'step' | 'review'>): string {
  if (c.status === 'abandoned') return c.step ? `Abandonado en ${stepLabels[c.step] ?? c.step}` : 'Abandonado';
  if (c.status === 'in_progress' && c.step) return `En curso: ${stepLabels[c.step] ?? c.step}`;
  if (c.status === 'reviewed' && c.review) return `Revisado: ${decisionLabels[c.review.decision].toLowerCase()}`;
  return statusLabels[c.status];
}

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

export const checkOutcomeLabels = { passed: 'Cumple', failed: 'No cumple', not_checked: 'No verificado', missing: 'Sin evidencia' } as const;

export const effectLabels = { none: 'sin efecto', yellow: 'lleva a amarillo', red: 'lleva a rojo' } as const;

export const consentLabels: Record<string, string> = {
  terminos: 'Términos y aviso de privacidad',
  clausula: 'Cláusula de medios electrónicos',
  autorizacion: 'Autorización de consulta',
  consulta_historial: 'Consulta de historial crediticio',
};

export const imageLabels = { front: 'Identificación: frente', back: 'Identificación: reverso', holder: 'Fotografía de la identificación' } as const;

export const eventTypeLabels: Record<string, string> = {
  'verification.completed': 'Verificación concluida',
  'verification.abandoned': 'Verificación abandonada',
  'review.decided': 'Revisión decidida',
};

export const deliveryStatusLabels: Record<ConsoleDeliveryStatus, string> = { pending: 'Pendiente', delivered: 'Entregado', failed: 'Fallido', dropped: 'Descartado' };
