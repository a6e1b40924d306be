import type { ConsoleCase, ConsoleCaseStatus, ConsoleReviewDecision, ConsoleReviewReason, ConsoleRole } from '@kyc/contracts';

export const statusLabels: Record<ConsoleCaseStatus, string> = {
  in_progress: 'En curso',
  abandoned: 'Abandonado',
  finished: 'Finalizado, sin calificar',
  GREEN: 'Verde',
  YELLOW: 'Amarillo',
  RED: 'Rojo',
  reviewed: 'Revisado',
};

export const decisionLabels: Record<ConsoleReviewDecision, string> = { approve: 'Aprobado', reject: 'Rechazado' };

export const reasonLabels: Record<ConsoleReviewReason, string> = {
  identity_confirmed: 'Identidad confirmada',
  documents_confirmed: 'Documentos verificados',
  risk_accepted: 'Riesgo aceptado',
  document_invalid: 'Identificación no válida',
  face_mismatch: 'El rostro no coincide',
  data_inconsistent: 'Datos inconsistentes',
  suspected_fraud: 'Sospecha de fraude',
  incomplete: 'Expediente incompleto',
};

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
