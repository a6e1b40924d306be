import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { generateWebhookSecret, signatureHeader } from './signing.js';
import { deactivateEndpoint, insertEndpoint, listDeliveries, listEndpoints } from './store.js';

export class WebhookCliError extends Error {
  override name = 'WebhookCliError';
}

const loopback = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http to this machine only (a local receiver while integrating). */
export function webhookUrlProblem(url: string | undefined): string | undefined {
  if (!url) return '--url is required';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `--url ${url} is not a URL`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && loopback.has(parsed.hostname)) return undefined;
  return '--url must be https:// (http:// only to localhost while integrating)';
}

export async function webhookAdd(db: Db, cipher: DataCipher, grantorId: string, url: string | undefined, out: (line: string) => void): Promise<void> {
  const problem = webhookUrlProblem(url);
  if (problem) throw new WebhookCliError(problem);
  const secret = generateWebhookSecret();
  const id = await insertEndpoint(db, cipher, { grantorId, url: url!, secret });
  out(`endpoint: ${id}`);
  out(`url:      ${url}`);
  out(`secret:   ${secret}`);
  out(`The secret is shown only now. Each delivery carries the header ${signatureHeader}: t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>">;`);
  out('verify it as README "Webhooks" shows, and answer 2xx within 10 s (otherwise it is retried for about 24 hours).');
}

export async function webhookList(db: Db, grantorId: string | undefined, out: (line: string) => void): Promise<void> {
  const endpoints = await listEndpoints(db, grantorId);
  if (endpoints.length === 0) {
    out('No webhook endpoints yet: add one with kyc-grantor webhook-add <grantorId> --url https://…');
    return;
  }
  for (const e of endpoints) {
    out(`${e.id}  ${e.active ? 'active ' : 'removed'}  grantor ${e.grantorId}  ${e.url}`);
    for (const d of await listDeliveries(db, e.id, 5)) {
      out(`    ${d.deliveredAt}  ${d.eventType}  ${d.eventId}  attempt ${d.attempt}  ${d.statusCode ?? '-'}  ${d.durationMs} ms${d.error ? `  ${d.error}` : ''}`);
    }
  }
}

export async function webhookRemove(db: Db, id: string | undefined, out: (line: string) => void): Promise<void> {
  if (!id) throw new WebhookCliError('an endpoint id is required (see webhook-list)');
  if (!(await deactivateEndpoint(db, id.toLowerCase()))) throw new WebhookCliError(`no active webhook endpoint with id ${id}`);
  out(`${id} removed: no more deliveries are made to it (queued ones are dropped)`);
}
