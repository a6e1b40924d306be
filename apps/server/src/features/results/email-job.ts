import type { BlobStore } from '../../blob/blob-store.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { ScoreFlag } from './score.js';
import type { ClaimedJob } from '../../jobs/queue.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Db } from '../../store/db.js';
import { withheldReason } from '../../store/transactions.js';
import { type DocumentsDeps, folioOf, generateDocuments, latestDocuments } from './documents-service.js';

export const emailJobKind = 'correo_resultado';

/** What the route stores for the job (encrypted with the job). */
export interface EmailJobPayload {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  grantorName: string;
  email: string;
  /** Kept for jobs queued before issue #15; never written into the message. */
  name: string;
  flag: ScoreFlag;
  tipo_envio: string;
  semaforo: string;
  customId: string;
  clientCustomId: string;
  /** The result link of the /pdf_token flow and its expiry (epoch ms). */
  pdfTokenUrl?: string;
  fecha?: number;
  userData?: Array<[string, string, true?]>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function longDate(ms: number): string {
  return new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Mexico_City' }).format(new Date(ms));
}

type MailBlock = string | { link: string; label: string };

/** Subject and body of the result e-mail by flag (the final screens' outcomes, docs/decisions.md). */
export function resultMailText(p: EmailJobPayload): { subject: string; blocks: MailBlock[] } {
  const folio = folioOf(p.uuidUser);
  // No text of the request reaches the message (issue #15): the greeting names nobody, whatever p.name holds.
  const greeting = 'Hola:';
  const link: MailBlock[] =
    p.pdfTokenUrl && p.fecha
      ? [`Puedes consultar tu documento una sola vez, hasta el ${longDate(p.fecha)}; te pediremos confirmar tu identidad con tu rostro.`, { link: p.pdfTokenUrl, label: 'Consultar mi documento' }]
      : [];
  const closing = [`Folio: ${folio}.`, `Este correo fue enviado por ${p.grantorName}. Si no reconoces esta solicitud, ignóralo.`];
  switch (p.flag) {
    case 'GREEN':
      return {
        subject: `${p.grantorName}: tu solicitud está completa`,
        blocks: [greeting, 'Tu solicitud se completó correctamente. Adjuntamos el reporte de tu verificación de identidad.', ...link, ...closing],
      };
    case 'YELLOW':
      return {
        subject: `${p.grantorName}: estamos procesando tu solicitud`,
        blocks: [greeting, 'Nuestro equipo está procesando tu solicitud; recibirás el resultado en las próximas horas. Adjuntamos el reporte de tu verificación de identidad.', ...link, ...closing],
      };
    default:
      return {
        subject: `${p.grantorName}: resultado de tu solicitud`,
        blocks: [greeting, 'Tu proceso no fue aceptado. Revisa que tus documentos sean vigentes y legibles e intenta nuevamente, o comunícate con nosotros indicando tu folio.', ...closing],
      };
  }
}

/** The plain-text part: a link is written out whole on its own line. */
export function mailText(blocks: MailBlock[]): string {
  return blocks.map((block) => (typeof block === 'string' ? block : block.link)).join('\n\n');
}

/** The HTML part: a link is an anchor with a short label, not a 600-character address in the text. */
export function mailHtml(blocks: MailBlock[]): string {
  return blocks.map((block) => (typeof block === 'string' ? `<p>${escapeHtml(block)}</p>` : `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`)).join('\n');
}

export function emailJobHandler(deps: DocumentsDeps & { mailer: Mailer }) {
  return async (job: ClaimedJob): Promise<void> => {
    const p = job.payload as EmailJobPayload;
    // Queued before the person's data was blocked or erased: the e-mail (and its report) is no longer sent.
    if (await withheldReason(deps.db, p.uuidTrx)) return;
    const trx = { uuidTrx: p.uuidTrx, uuidUser: p.uuidUser, grantorId: p.grantorId };
    let report = (await latestDocuments(deps, p.uuidTrx)).get('reporte');
    if (!report) {
      const generated = await generateDocuments(deps, trx, new Date(), p.userData ? { userData: p.userData } : {});
      report = generated.documents.find((d) => d.name === 'reporte');
    }
    if (!report) throw new Error('the report could not be generated');
    const pdf = await deps.blobs.get(report.blobKey);
    const { subject, blocks } = resultMailText(p);
    await deps.mailer.send({
      id: job.id,
      to: p.email,
      subject,
      text: mailText(blocks),
      html: mailHtml(blocks),
      attachments: [{ filename: `reporte_${p.customId.replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`, content: pdf.buffer, contentType: 'application/pdf' }],
    });
  };
}
