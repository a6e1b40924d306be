/**
 * What a person reading the documents sees instead of the wire and storage names: every rule, evidence kind,
 * journey step and confirmed datum in Spanish. A name without a label is shown as "Otro dato" rather than raw.
 */
import { evidenceKind } from '../../../domain/evidence-kinds.js';
import { scoreRules, type ScoreFlag } from '../score.js';

export const flagLabel: Record<ScoreFlag, string> = { GREEN: 'VERDE', YELLOW: 'AMARILLO', RED: 'ROJO' };

export const ruleLabel: Record<string, string> = {
  [scoreRules.identification]: 'Frente de la identificación',
  [scoreRules.idBack]: 'Reverso de la identificación',
  [scoreRules.mrzCheckDigits]: 'Dígitos verificadores de la zona de lectura mecánica',
  [scoreRules.mrzFront]: 'Zona de lectura mecánica frente a los datos impresos',
  [scoreRules.validity]: 'Vigencia de la identificación',
  [scoreRules.renapo]: 'CURP ante RENAPO',
  [scoreRules.ine]: 'Credencial en la lista nominal del INE',
  [scoreRules.face]: 'Coincidencia del rostro',
  [scoreRules.liveness]: 'Prueba de vida',
  [scoreRules.spokenCode]: 'Código leído en voz alta',
  [scoreRules.proofOfAddress]: 'Comprobante de domicilio',
  [scoreRules.attempts]: 'Intentos',
};

export const outcomeLabel = { passed: 'cumple', failed: 'no cumple', missing: 'sin evidencia' } as const;

export const evidenceLabel: Record<string, string> = {
  [evidenceKind.idFront]: 'Identificación, frente',
  [evidenceKind.idBack]: 'Identificación, reverso',
  [evidenceKind.idBackRefused]: 'Identificación, reverso rechazado',
  [evidenceKind.holderPhoto]: 'Fotografía de la identificación',
  [evidenceKind.proofOfAddress]: 'Comprobante de domicilio',
  [evidenceKind.proofReading]: 'Lectura del comprobante',
  [evidenceKind.renapo]: 'Validación de CURP',
  [evidenceKind.ine]: 'Validación de la credencial INE',
  [evidenceKind.hologram]: 'Video del holograma',
  [evidenceKind.videoToken]: 'Video de rostro',
  [evidenceKind.userData]: 'Datos confirmados',
  [evidenceKind.consent]: 'Aceptación de un consentimiento',
  [evidenceKind.document]: 'Documento generado',
  [evidenceKind.phoneVerified]: 'Teléfono verificado',
  [evidenceKind.realtimeRecording]: 'Grabación en tiempo real',
  // Kinds written by id-capture (idEvidenceKinds) and the evidence bundle (bundleEvidenceKind), spelled out here
  // because those modules import this one.
  ocr_frente_incompleto_tolerado: 'Identificación, frente con datos incompletos',
  paquete_nom151: 'Paquete de evidencias con sello de tiempo',
};

/** Every step of the flow (apps/web steps/table.ts: any of them may report a cancellation) and the server's own. */
export const stepLabel: Record<string, string> = {
  inicio: 'Inicio',
  inicio_page: 'Inicio',
  terminos: 'Términos y aviso de privacidad',
  pasos_configuracion: 'Instrucciones',
  preparacion_identificacion: 'Identificación',
  identificacion: 'Identificación',
  holograma: 'Holograma',
  error_pantalla: 'Aviso de error',
  resultados_identificacion: 'Datos de la identificación',
  preparacion_comprobante: 'Comprobante de domicilio',
  comprobante: 'Comprobante de domicilio',
  datos_direccion_ocr_page: 'Domicilio',
  clausula: 'Cláusula',
  validacion_documento: 'Cláusula',
  autorizacion: 'Autorización',
  autorizacion_solicitud: 'Autorización',
  autorizacion_documento: 'Autorización',
  consulta_historial: 'Consulta de historial crediticio',
  validar_movil: 'Teléfono celular',
  validar_sms: 'Código por SMS',
  video_token: 'Video de rostro',
  pdf_video_token: 'Video de rostro para consultar el documento',
  pdf_token: 'Consulta del documento',
  pdf_token_instructions: 'Consulta del documento',
  pdf_token_error: 'Consulta del documento',
  pdf_token_result: 'Consulta del documento',
  ayuda: 'Ayuda',
  cancelar_flujo: 'Cancelación',
  pivote: 'Continuación en otro dispositivo',
  email_check: 'Correo electrónico',
  score_check: 'Calificación',
  finalizado: 'Final',
  finished: 'Final',
  completed: 'Proceso completo',
};

export const statusLabel: Record<string, string> = { OK: 'correcto', FAIL: 'no exitoso', INCOMPLETED: 'interrumpido' };

/** Where a row of the transaction's log comes from: the flow's progress events, or the audit events. */
export const trailSourceLabel = { lifecycle: 'Proceso', audit: 'Auditoría' } as const;

/** The confirmed data (data_user) by the names the flow sends; the consents it records as 'true'. */
export const userDatumLabel: Record<string, string> = {
  nombreCompleto: 'Nombre completo',
  nombre: 'Nombre',
  nacimiento: 'Fecha de nacimiento',
  fechaNacimiento: 'Fecha de nacimiento',
  curp: 'CURP',
  dni: 'DNI',
  vigencia: 'Vigencia',
  claveElector: 'Clave de elector',
  codigoPostal: 'Código postal',
  pais: 'País',
  estado: 'Estado',
  delegacion: 'Municipio o alcaldía',
  colonia: 'Colonia',
  calle: 'Calle',
  numeroExterior: 'Número exterior',
  numeroInterior: 'Número interior',
  calleCompleta: 'Domicilio',
  terms_acepted: 'Términos y aviso de privacidad',
  req_elec_acepted: 'Cláusula de medios electrónicos',
  request_report_acepted: 'Autorización de consulta',
};

/** A name that reads like an identifier (snake_case, camelCase, no spaces) rather than a phrase. */
const looksLikeKey = (name: string): boolean => /_|[a-z][A-Z]/.test(name) || (!/\s/.test(name) && name === name.toLowerCase());

/** The Spanish label of a name; a name that is already a phrase (sent by an integration) is kept. */
export function labelOf(labels: Record<string, string>, name: string): string {
  return labels[name] ?? (looksLikeKey(name) ? 'Otro dato' : name);
}

/** 'true' / 'false' as a person reads them (the flow records an accepted consent as 'true'). */
export function datumValue(value: string): string {
  if (value === 'true') return 'Aceptada';
  if (value === 'false') return 'No aceptada';
  return value;
}
