import { redoTexts, type ConsoleRedoChannel, type ConsoleRedoStep } from '@kyc/contracts';
import type { ClaimedJob } from '../../jobs/queue.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Db } from '../../store/db.js';
import { withheldReason } from '../../store/transactions.js';
import { mailHtml, mailText } from '../results/email-job.js';
import type { SmsSender } from '../sms/senders.js';

export const redoNoticeJobKind = 'aviso_repeticion';

/** One notice of a redo link (a durable job per channel, encrypted with the job: it holds the link). */
export interface RedoNotice {
  redoId: string;
  uuidTrx: string;
  grantorName: string;
  step: ConsoleRedoStep;
  channel: ConsoleRedoChannel;
  to: string;
  url: string;
  /** Epoch ms. */
  expiresAt: number;
}

function longDate(ms: number): string {
  return new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Mexico_City' }).format(new Date(ms));
}

/** The e-mail: the result e-mail's layout (a labelled link in HTML, the whole link in the text part). */
export function redoMail(n: RedoNotice) {
  const step = redoTexts.stepNames[n.step];
  const blocks = [
    'Hola:',
    redoTexts.mailIntro(n.grantorName, step),
    redoTexts.mailValidity(longDate(n.expiresAt)),
    { link: n.url, label: redoTexts.mailLinkLabel },
    `Este correo fue enviado por ${n.grantorName}. Si no reconoces esta solicitud, ignóralo.`,
  ];
  return { subject: redoTexts.mailSubject(n.grantorName), text: mailText(blocks), html: mailHtml(blocks) };
}

/** Sends one notice; a notice of a case blocked or erased meanwhile is dropped, like the result e-mail. */
export function redoNoticeHandler(deps: { db: Db; mailer: Mailer; sms: SmsSender }) {
  return async (job: ClaimedJob): Promise<void> => {
    const n = job.payload as RedoNotice;
    if (await withheldReason(deps.db, n.uuidTrx)) return;
    if (n.channel === 'sms') {
      await deps.sms.send({ to: n.to, text: redoTexts.sms(n.grantorName, redoTexts.stepNames[n.step], n.url) });
      return;
    }
    await deps.mailer.send({ id: job.id, to: n.to, ...redoMail(n), attachments: [] });
  };
}
