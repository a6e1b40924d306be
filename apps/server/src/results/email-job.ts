import type { BlobStore } from '../blob/blob-store.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { ScoreFlag } from '../domain/score.js';
import type { ClaimedJob } from '../jobs/queue.js';
import type { Mailer } from '../mail/mailer.js';
import type { Db } from '../store/db.js';
import { folioOf, generateDocuments, latestDocuments } from './documents-service.js';

export const emailJobKind = 'correo_resultado';

/** What the route stores for the job (encrypted with the job). */
export interface EmailJobPayload {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  grantorName: string;
  email: string;
  name: string;
  flag: ScoreFlag;
  tipo_envio: string;
  semaforo: string;
  customId: string;
  clientCustomId: string;
  /** The result link of the /pdf_token flow and its expiry (epoch ms). */
  pdfTokenUrl?: string;
  fecha?: number;
  userData?: [string, string][];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function longDate(ms: number): string {
  return new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Mexico_City' }).format(new Date(ms));
}

/** Subject and paragraphs of the result e-mail by flag (spec §2 final screens). */
export function resultMailText(p: EmailJobPayload): { subject: string; paragraphs: string[] } {
  const folio = folioOf(p.uuidUser);
  const greeting = `Hola ${p.name.trim() || 'cliente'}:`;
  const link =
    p.pdfTokenUrl && p.fecha
      ? [`Puedes consultar tu documento una sola vez en ${p.pdfTokenUrl} (vigente hasta el ${longDate(p.fecha)}); te pediremos confirmar tu identidad con tu rostro.`]
      : [];
  const closing = [`Folio: ${folio}.`, `Este correo fue enviado por ${p.grantorName}. Si no reconoces esta solicitud, ignóralo.`];
  switch (p.flag) {
    case 'GREEN':
      return {
        subject: `${p.grantorName}: tu solicitud está completa`,
        paragraphs: [greeting, 'Tu solicitud se completó correctamente. Adjuntamos el reporte de tu verificación de identidad.', ...link, ...closing],
      };
    case 'YELLOW':
      return {
        subject: `${p.grantorName}: estamos procesando tu solicitud`,
        paragraphs: [greeting, 'Nuestro equipo está procesando tu solicitud; recibirás el resultado en las próximas horas. Adjuntamos el reporte de tu verificación de identidad.', ...link, ...closing],
      };
    default:
      return {
        subject: `${p.grantorName}: resultado de tu solicitud`,
        paragraphs: [greeting, 'Tu proceso no fue aceptado. Revisa que tus documentos sean vigentes y legibles e intenta nuevamente, o comunícate con nosotros indicando tu folio.', ...closing],
      };
  }
}

export function emailJobHandler(deps: { db: Db; cipher: DataCipher; blobs: BlobStore; mailer: Mailer }) {
  return async (job: ClaimedJob): Promise<void> => {
    const p = job.payload as EmailJobPayload;
    const trx = { uuidTrx: p.uuidTrx, uuidUser: p.uuidUser, grantorId: p.grantorId };
    let report = (await latestDocuments(deps, p.uuidTrx)).get('reporte');
    if (!report) {
      const generated = await generateDocuments(deps, trx, new Date(), p.userData ? { userData: p.userData } : {});
      report = generated.documents.find((d) => d.name === 'reporte');
    }
    if (!report) throw new Error('the report could not be generated');
    const pdf = await deps.blobs.get(report.blobKey);
    const { subject, paragraphs } = resultMailText(p);
    await deps.mailer.send({
      id: job.id,
      to: p.email,
      subject,
      text: paragraphs.join('\n\n'),
      html: paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
      attachments: [{ filename: `reporte_${p.customId.replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`, content: pdf.buffer, contentType: 'application/pdf' }],
    });
  };
}
