import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

/** Writes `head` then trickles `trickle` a byte every `everyMs`; resolves with what came back and when the server closed. */
function slowClient(port: number, head: string, trickle: string, everyMs: number): Promise<{ reply: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!);
      }, everyMs);
    });
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ reply, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server kept the connection open for 15 s (got: ${reply.slice(0, 80)})`));
    }, 15_000);
  });
}

describe('slow clients (sqlite)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({ name: 'sqlite' }, { REQUEST_TIMEOUT_MS: '3000', HEADERS_TIMEOUT_MS: '1500' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  }, 60_000);
  afterAll(async () => t?.close());

  it('a body declared longer than what arrives is answered 408 and closed within the request timeout', async () => {
    const head = 'POST /v1/update_cycle HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"trx"';
    const { reply, closedAfterMs } = await slowClient(port, head, '', 1000);
    expect(closedAfterMs).toBeLessThan(3000 + 2500);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('headers trickled a byte at a time (slowloris) are cut off at the headers timeout', async () => {
    const { closedAfterMs } = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 200);
    expect(closedAfterMs).toBeLessThan(1500 + 2500);
  });

  it('a client that sends in time is served', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
