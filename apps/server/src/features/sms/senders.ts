import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';

export interface SmsMessage {
  /** E.164: + country prefix + number. */
  to: string;
  text: string;
}

/** Where SMS go: the local outbox by default, an HTTP gateway when SMS_GATEWAY_URL is set. */
export interface SmsSender {
  readonly kind: 'outbox' | 'http';
  send(message: SmsMessage): Promise<void>;
}

export class SmsSendError extends Error {
  override name = 'SmsSendError';
}

export interface OutboxEntry extends SmsMessage {
  id: string;
  createdAt: string;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'sms-outbox');
}

/**
 * Development and demo adapter: each message is a JSON file under DATA_DIR/sms-outbox (mode 0600), readable
 * by the operator and by tests. Never use it in production: the codes are in clear there.
 */
export function outboxSender(dir: string): SmsSender {
  return {
    kind: 'outbox',
    async send(message) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const createdAt = new Date().toISOString();
      const id = randomUUID();
      const entry: OutboxEntry = { id, createdAt, ...message };
      const file = path.join(dir, `${createdAt.replace(/[:.]/g, '-')}-${id}.json`);
      await writeFile(`${file}.tmp`, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    },
  };
}

/** The outbox's messages, oldest first. */
export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as OutboxEntry));
}

/**
 * A generic HTTP gateway: POST {to, text} as JSON with a bearer token; any 2xx is accepted. Providers with
 * another shape sit behind a small relay that speaks this one.
 */
export function httpSender(url: string, token: string | undefined, timeoutMs = 10_000): SmsSender {
  return {
    kind: 'http',
    async send(message) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ to: message.to, text: message.text }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new SmsSendError(`SMS gateway unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new SmsSendError(`SMS gateway answered ${response.status}`);
    },
  };
}

export function createSmsSender(config: Pick<Config, 'smsGateway' | 'dataDir'>): SmsSender {
  return config.smsGateway ? httpSender(config.smsGateway.url, config.smsGateway.token) : outboxSender(outboxDir(config.dataDir));
}
