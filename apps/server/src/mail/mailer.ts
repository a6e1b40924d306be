import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { openBlob, sealBlob } from '../blob/sealed-blob.js';
import type { Config } from '../config.js';
import type { DataCipher } from '../crypto/data-cipher.js';

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

/** An outbox message's file: sealed with the data key like every blob (`.eml.sealed`). */
const sealedSuffix = '.eml.sealed';
/** The authenticated context of a message's seal: a file renamed to another message does not decrypt. */
const outboxContext = (name: string) => `outbox/${name}`;
const purgeEveryMs = 60 * 60_000;

/** Deletes outbox messages older than `maxAgeMs` (and leftovers of interrupted writes); returns how many. */
export async function purgeOutbox(dataDir: string, maxAgeMs: number, now: number = Date.now()): Promise<number> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < maxAgeMs) continue;
    if (
      await unlink(file).then(
        () => true,
        () => false,
      )
    )
      removed += 1;
  }
  return removed;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise a local outbox for development: each message sealed
 * with the data key (it carries the customer's report) in DATA_DIR/outbox/<job id>.eml.sealed (mode 0600), named
 * by the job so a retry replaces it, and deleted after `outboxRetentionHours` (checked at start and hourly).
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'outboxRetentionHours'>, cipher: DataCipher): Mailer {
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
  const maxAgeMs = config.outboxRetentionHours * 3_600_000;
  const purge = () => void purgeOutbox(config.dataDir, maxAgeMs).catch(() => undefined);
  purge();
  const timer = setInterval(purge, Math.min(purgeEveryMs, maxAgeMs));
  timer.unref();
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(message(config.mailFrom, mail));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${mail.id}${sealedSuffix}`;
      const file = path.join(dir, name);
      const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, sealBlob(cipher, outboxContext(name), info.message as Buffer, 'message/rfc822'), { mode: 0o600 });
      await rename(temp, file);
      return { messageId: info.messageId, file };
    },
    close: () => {
      clearInterval(timer);
      transport.close();
    },
  };
}

/** The outbox's messages, decrypted (file names, newest last): what the back office or a test reads. */
export async function listOutbox(dataDir: string, cipher: DataCipher): Promise<{ file: string; eml: string }[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((n) => n.endsWith(sealedSuffix)).sort();
  return Promise.all(
    files.map(async (name) => ({
      file: path.join(dir, name),
      eml: openBlob(cipher, outboxContext(name), await readFile(path.join(dir, name))).buffer.toString('utf8'),
    })),
  );
}
