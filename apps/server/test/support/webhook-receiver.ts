import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeader } from '../../src/features/webhooks/signing.js';

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
