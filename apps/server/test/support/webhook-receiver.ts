import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDataCipher, loadDataKey } from '../../src/crypto/data-cipher.js';
import { generateWebhookSecret, signatureHeader } from '../../src/features/webhooks/signing.js';
import { insertEndpoint } from '../../src/features/webhooks/store.js';
import type { TestApp } from './app.js';
import { demoId, lifecycleEvent, trxHeaders } from './fixtures.js';

export interface Received {
  body: string;
  signature: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  server: Server;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });
}

/** A lender's receiver on this machine that answers 500 to its first `failures` requests, then 200; it keeps each body and signature header. */
export async function receiver(failures: number): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let left = failures;
  const server = createServer(async (req, res) => {
    received.push({ body: await read(req), signature: String(req.headers[signatureHeader] ?? '') });
    res.statusCode = left-- > 0 ? 500 : 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/**
 * Registers `hookUrl` as the demo grantor's webhook endpoint, then ends a new transaction (its `finished` event) in a
 * request carrying `requestId`: the request enqueues a webhook job for the worker.
 */
export async function finishWithWebhook(t: TestApp, hookUrl: string, requestId: string) {
  const cipher = createDataCipher(loadDataKey(t.config).key);
  await insertEndpoint(t.db, cipher, { grantorId: demoId, url: hookUrl, secret: generateWebhookSecret() });
  const headers = trxHeaders();
  const finished = lifecycleEvent(headers, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
  const response = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: { ...headers, 'x-request-id': requestId }, payload: finished });
  return { headers, response };
}
