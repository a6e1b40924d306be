import { describe, expect, it } from 'vitest';
import { evidenceKind, type VideoTokenDecision } from '../../src/domain/evidence-kinds.js';
import { idEvidenceKinds } from '../../src/features/id-capture/id-reading.js';
import { bundleEvidenceKind } from '../../src/features/results/bundle.js';
import { userDataOf } from '../../src/features/results/documents-service.js';
import { renderDocuments, type DocumentsInput } from '../../src/features/results/documents/documents.js';
import { evidenceLabel, labelOf, statusLabel, stepLabel, trailSourceLabel } from '../../src/features/results/documents/labels.js';
import { scoreTransaction, type ScoreFacts } from '../../src/features/results/score.js';
import type { EvidenceRecord } from '../../src/store/evidence.js';
import { pdfText } from './support.js';

/** Every step of the flow's step table (apps/web/src/steps/table.ts): a cancellation may come from any of them. */
const flowSteps = [
  'inicio',
  'terminos',
  'pasos_configuracion',
  'preparacion_identificacion',
  'holograma',
  'identificacion',
  'error_pantalla',
  'resultados_identificacion',
  'datos_direccion_ocr_page',
  'clausula',
  'validacion_documento',
  'autorizacion_solicitud',
  'autorizacion_documento',
  'video_token',
  'pdf_video_token',
  'preparacion_comprobante',
  'comprobante',
  'consulta_historial',
  'validar_movil',
  'validar_sms',
  'pdf_token',
  'pdf_token_instructions',
  'pdf_token_error',
  'pdf_token_result',
  'finalizado',
  'ayuda',
  'cancelar_flujo',
  'pivote',
];
/** Steps reported by the flow's own events besides the table's (journey.ts, finish.ts) and the audit events' paso. */
const eventSteps = ['inicio_page', 'autorizacion', 'email_check', 'score_check', 'finished', 'completed'];
const allEvidenceKinds = [...Object.values(evidenceKind), idEvidenceKinds.toleratedFront, bundleEvidenceKind];

/** What a person must not meet in a document: wire and storage names, English, configuration hints. */
function expectReadable(text: string, doc: string): void {
  const rawNames = [
    'terms_acepted',
    'req_elec_acepted',
    'request_report_acepted',
    '_acepted',
    'nombreCompleto',
    'codigoPostal',
    'numeroExterior',
    'calleCompleta',
    'DNI_PERU',
    'INCOMPLETED',
    'rostro_coincidencia',
    'prueba_de_vida',
    'ocr_frente',
    'ocr_reverso',
    'video_token',
    'data_user',
    'rostro_identificacion',
    'paquete_nom151',
    'datos_direccion_ocr_page',
    'preparacion_comprobante',
    'GREEN',
    'YELLOW',
    'Otro dato',
    'spoof',
  ];
  for (const raw of rawNames) expect(text, `${doc}: ${raw}`).not.toContain(raw);
  expect(text, doc).not.toMatch(/\b(the|is|not|no Spanish|configured|server|model|engine|check digits?|failed|passed|was|recognised)\b/);
  expect(text, doc).not.toMatch(/ASR_|MODEL_DIR|README|[A-Z]+_[A-Z]+=?/);
}

const englishSpeech = 'no Spanish speech-recognition model is configured on this server (ASR_MODEL_DIR, see README "Spoken code"); the spoken code was not recognised';
const face: VideoTokenDecision = {
  match: true,
  faceScore: 0.81,
  threshold: 0.6,
  liveness: { passed: false, spoof: true, signals: {} },
  spokenCode: { verified: null, engine: 'none', detail: englishSpeech },
};
const facts: ScoreFacts = {
  front: { verdict: { kind: 'accepted' }, documentType: 'DNI_PERU', ocrData: { vigencia: '2020', curp: 'NUZM900101MDFXXX09' } },
  back: { verdict: { kind: 'rejected', detail: 'the MRZ check digits failed' }, mrz: { valid: false, checkDigits: { birthDate: false } }, warnings: ['mrz_front_mismatch:surname'] },
  renapo: { curp: 'NUZM900101MDFXXX09', outcome: 'failed', checks: [{ rule: 'check_digit', passed: false, detail: 'the check digit is wrong' }], source: 'local' },
  face,
  proof: { outcome: 'failed', holderName: 'X', postalCode: '06700', nameMatchesId: false, recent: false },
  locked: true,
};

const record = (kind: string, payload: unknown): EvidenceRecord => ({ id: kind, kind, blobKey: null, sha256: null, createdAt: new Date(), payload });

function input(): DocumentsInput {
  const score = scoreTransaction(facts, { renapoEnabled: true, ineEnabled: true, minFaceScore: null, optional: new Set(), strict: new Set() }, new Date('2026-11-26T12:00:00Z'));
  const user = userDataOf([
    record(evidenceKind.userData, [
      { description: 'nombreCompleto', value: 'MARÍA FERNANDA NÚÑEZ ZÚÑIGA' },
      { description: 'curp', value: 'NUZM900101MDFXXX09' },
      { description: 'vigencia', value: '31/12/2030', typed: true },
      { description: 'codigoPostal', value: '99999' },
      { description: 'calleCompleta', value: 'C MORELOS 123' },
      { description: 'numeroExterior', value: '123' },
      { description: 'terms_acepted', value: 'true' },
      { description: 'req_elec_acepted', value: 'true' },
      { description: 'request_report_acepted', value: 'true' },
    ]),
  ]);
  const at = '2026-11-26T12:00:00.000Z';
  const consent = { title: 'Cláusula de medios electrónicos', text: 'Acepto el uso de medios electrónicos.', version: '2024-01' };
  return {
    grantor: { id: 'g', legalName: 'Financiera Demo S.A. de C.V.', city: 'Ciudad de México' },
    uuidTrx: '11111111-2222-4333-8444-555555555555',
    uuidUser: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    folio: 'aaaaaaaa',
    userName: user.name,
    userData: user.rows,
    clause: consent,
    authorization: { ...consent, title: 'Autorización de consulta', text: 'Autorizo la consulta.' },
    acceptances: [{ consent: 'clausula', version: '2024-01', sha256: 'b'.repeat(64), acceptedAt: at, ip: '203.0.113.7', userAgent: 'Navegador de prueba' }],
    score,
    evidence: allEvidenceKinds.map((kind) => ({ kind, sha256: 'c'.repeat(64), createdAt: at })),
    trail: [...flowSteps, ...eventSteps].map((step) => ({ at, source: trailSourceLabel.lifecycle, step: labelOf(stepLabel, step), detail: statusLabel.INCOMPLETED! })),
    photos: [],
    generatedAt: new Date(at),
  };
}

describe('the documents read as documents (issue #21 item 8)', () => {
  it('every rule, evidence kind and step of the flow has a Spanish label', () => {
    for (const step of [...flowSteps, ...eventSteps]) expect(stepLabel[step], step).toBeTruthy();
    for (const kind of allEvidenceKinds) expect(evidenceLabel[kind], kind).toBeTruthy();
    expect(statusLabel.INCOMPLETED).toBe('interrumpido');
  });

  it('renders the clause, the authorization and the report without raw keys, English or configuration hints', async () => {
    const docs = await renderDocuments(input());
    expect(docs.map((d) => d.name)).toEqual(['clausula', 'autorizacion', 'reporte']);
    for (const doc of docs) {
      const text = await pdfText(doc.bytes);
      expectReadable(text, doc.name);
      expect(text, doc.name).toContain('MARÍA FERNANDA NÚÑEZ ZÚÑIGA');
    }
    const clause = await pdfText(docs[0]!.bytes);
    for (const label of ['Datos de la aceptación', 'Versión del texto', 'Aceptado el', 'Dirección IP', 'Navegador']) expect(clause).toContain(label);
    const report = await pdfText(docs[2]!.bytes);
    for (const label of [
      'Semáforo',
      'ROJO',
      'Términos y aviso de privacidad',
      'Cláusula de medios electrónicos',
      'Autorización de consulta',
      'Aceptada',
      'Código postal',
      'Domicilio',
      'Número exterior',
      'escrito por la persona',
      'Frente leído (DNI de Perú)',
      'Prueba de vida',
      'Se detectó un intento de suplantación.',
      'No se verificó el código leído en voz alta.',
      'Código leído en voz alta',
      'Paquete de evidencias con sello de tiempo',
      'Identificación, frente con datos incompletos',
      'Bitácora de la transacción',
      'Comprobante de domicilio',
      'Continuación en otro dispositivo',
      'interrumpido',
      'Proceso',
    ]) {
      expect(report, label).toContain(label);
    }
  });
});
