import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface OutgoingMail {
  /** Stable per job, so a retried send carries the same Message-ID (and lands on the same outbox file). */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

function message(from: string, mail: OutgoingMail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@kyc-onboarding>`,
    attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
  };
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise a local outbox: each message written as an .eml file
 * (mode 0600: it carries the customer's report) under DATA_DIR/outbox, named by the job so a retry replaces it.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transport.sendMail(message(config.mailFrom, mail));
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const dir = outboxDir(config.dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(message(config.mailFrom, mail));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${mail.id}.eml`);
      const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, info.message as Buffer, { mode: 0o600 });
      await rename(temp, file);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

/** The outbox's messages (file names, newest last): what the back office or a test reads. */
export async function listOutbox(dataDir: string): Promise<{ file: string; eml: string }[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(files.map(async (name) => ({ file: path.join(dir, name), eml: await readFile(path.join(dir, name), 'utf8') })));
}
