import { createHash } from 'node:crypto';
import type { PDFImage } from '@cantoo/pdf-lib';
import type { ConsentAcceptance } from '../../../domain/evidence-kinds.js';
import type { ScoreResult } from '../score.js';
import { evidenceLabel, flagLabel, labelOf, outcomeLabel, ruleLabel } from './labels.js';
import { createWriter } from './pdf.js';

/**
 * The three documents of a transaction (docs/flow.md §7 proccessdocuments): the clause and the authorization as accepted,
 * and the verification report. Pure rendering: the caller gathers the data (features/results/documents-service.ts).
 */
export interface ConsentText {
  title: string;
  text: string;
  version: string;
}

export interface DocumentsInput {
  grantor: { id: string; legalName: string; city: string };
  uuidTrx: string;
  uuidUser: string;
  folio: string;
  userName: string;
  /** Label → value of what the user confirmed (or, failing that, what was read from the ID). */
  userData: [string, string][];
  clause: ConsentText;
  authorization: ConsentText;
  /** Acceptances recorded for the transaction (consentimiento evidence), by consent name. */
  acceptances: ConsentAcceptance[];
  score: ScoreResult;
  evidence: { kind: string; sha256: string | null; createdAt: string }[];
  trail: { at: string; source: string; step: string; detail: string }[];
  photos: { label: string; jpeg: Buffer }[];
  generatedAt: Date;
}

export interface RenderedDocument {
  name: 'clausula' | 'autorizacion' | 'reporte';
  bytes: Uint8Array;
  sha256: string;
}

function longDate(date: Date): string {
  return new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'America/Mexico_City' }).format(date);
}

function timestamp(iso: string): string {
  return `${iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}`;
}

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function consentDocument(input: DocumentsInput, name: 'clausula' | 'autorizacion', consent: ConsentText, consentIds: string[]): Promise<RenderedDocument> {
  const w = await createWriter({
    title: consent.title,
    subject: `${consent.title} - folio ${input.folio}`,
    author: input.grantor.legalName,
    createdAt: input.generatedAt,
    footer: `${input.grantor.legalName} - folio ${input.folio} - transacción ${input.uuidTrx}`,
  });
  w.title(consent.title);
  w.paragraph(`${input.grantor.city ? `${input.grantor.city}, a ` : ''}${longDate(input.generatedAt)}`, { color: [0.35, 0.35, 0.4] });
  w.space(6);
  w.paragraph(consent.text);
  w.heading('Datos de la aceptación');
  w.field('Nombre', input.userName);
  w.field('Folio', input.folio);
  w.field('Usuario', input.uuidUser);
  w.field('Versión del texto', consent.version);
  w.field('SHA-256 del texto', sha256(consent.text));
  const accepted = input.acceptances.filter((a) => consentIds.includes(a.consent)).at(-1);
  if (accepted) {
    w.field('Aceptado el', timestamp(accepted.acceptedAt));
    w.field('Versión aceptada', accepted.version);
    w.field('SHA-256 aceptado', accepted.sha256);
    if (accepted.ip) w.field('Dirección IP', accepted.ip);
    if (accepted.userAgent) w.field('Navegador', accepted.userAgent);
  } else {
    w.paragraph('No hay registro de aceptación de este texto en la transacción al momento de generar el documento.', { color: [0.6, 0.1, 0.1] });
  }
  const bytes = await w.finish();
  return { name, bytes, sha256: sha256(bytes) };
}

async function reportDocument(input: DocumentsInput): Promise<RenderedDocument> {
  const w = await createWriter({
    title: 'Reporte de verificación de identidad',
    subject: `Reporte de verificación - folio ${input.folio}`,
    author: input.grantor.legalName,
    createdAt: input.generatedAt,
    footer: `${input.grantor.legalName} - reporte de verificación - folio ${input.folio}`,
  });
  w.title('Reporte de verificación de identidad');
  w.paragraph(`${input.grantor.legalName} - generado el ${timestamp(input.generatedAt.toISOString())}`, { color: [0.35, 0.35, 0.4] });
  w.heading('Resultado');
  w.field('Semáforo', flagLabel[input.score.flag]);
  w.field('Folio', input.folio);
  w.field('Transacción', input.uuidTrx);
  w.field('Usuario', input.uuidUser);
  w.heading('Datos del usuario');
  w.field('Nombre completo', input.userName);
  for (const [label, value] of input.userData) w.field(label, value);
  if (input.photos.length > 0) {
    w.heading('Identificación y rostro');
    const images: { label: string; image: PDFImage }[] = [];
    for (const photo of input.photos) images.push({ label: photo.label, image: await w.doc.embedJpg(photo.jpeg) });
    w.images(images);
  }
  w.heading('Reglas de la calificación');
  w.table(
    ['Regla', 'Resultado', 'Detalle'],
    input.score.rules.map((r) => [labelOf(ruleLabel, r.rule), outcomeLabel[r.outcome], r.summary]),
    [3, 2, 9],
  );
  w.heading('Evidencias (SHA-256 del contenido original)');
  w.table(
    ['Fecha', 'Tipo', 'SHA-256'],
    input.evidence.map((e) => [timestamp(e.createdAt), labelOf(evidenceLabel, e.kind), e.sha256 ?? '(sin archivo)']),
    [3, 3, 8],
  );
  w.heading('Bitácora de la transacción');
  if (input.trail.length === 0) w.paragraph('Sin eventos registrados.');
  else
    w.table(
      ['Fecha', 'Origen', 'Paso', 'Detalle'],
      input.trail.map((t) => [timestamp(t.at), t.source, t.step, t.detail]),
      [3, 2, 3, 7],
    );
  const bytes = await w.finish();
  return { name: 'reporte', bytes, sha256: sha256(bytes) };
}

export async function renderDocuments(input: DocumentsInput): Promise<RenderedDocument[]> {
  return [
    await consentDocument(input, 'clausula', input.clause, ['clausula', 'medios_electronicos']),
    await consentDocument(input, 'autorizacion', input.authorization, ['autorizacion']),
    await reportDocument(input),
  ];
}
