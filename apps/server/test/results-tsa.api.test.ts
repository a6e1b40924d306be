import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueTimestamp, loadLocalTsa } from '../src/features/results/local-tsa.js';
import { rfc3161Timestamp, timestampRequest } from '../src/features/results/timestamp.js';

/** A time-stamping authority over HTTP (RFC 3161 transport), answering with the project's own TSA code. */
describe('RFC 3161 time-stamp from a TSA_URL', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let mode: 'ok' | 'other-hash' | 'http-error' = 'ok';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tsa-'));
    const tsa = await loadLocalTsa(dir);
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (mode === 'http-error' || req.headers['content-type'] !== 'application/timestamp-query') {
          res.writeHead(500).end();
          return;
        }
        const body = Buffer.concat(chunks);
        const request = pkijs.TimeStampReq.fromBER(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
        const hash = Buffer.from(request.messageImprint.hashedMessage.valueBlock.valueHexView);
        const nonce = request.nonce ? Buffer.from(request.nonce.valueBlock.valueHexView) : undefined;
        const signed = mode === 'other-hash' ? createHash('sha256').update('otro').digest() : hash;
        const reply = await issueTimestamp(tsa, signed, nonce ? { nonce } : {});
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(reply);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sends a DER TimeStampReq and keeps a token that OpenSSL verifies', async () => {
    const data = Buffer.from('{"files":[]}');
    const hash = createHash('sha256').update(data).digest();
    const stamp = await rfc3161Timestamp(url, hash);
    expect(stamp).toMatchObject({ kind: 'rfc3161', source: 'tsa', tsaUrl: url });
    expect(Math.abs(Date.parse(stamp.genTime) - Date.now())).toBeLessThan(60_000);
    await writeFile(path.join(dir, 'data'), data);
    await writeFile(path.join(dir, 'reply.tsr'), stamp.responseDer);
    await writeFile(path.join(dir, 'tsa.pem'), (await loadLocalTsa(dir)).certificatePem);
    const out = execFileSync('openssl', ['ts', '-verify', '-data', 'data', '-in', 'reply.tsr', '-CAfile', 'tsa.pem'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('Verification: OK');
    const request = pkijs.TimeStampReq.fromBER(new Uint8Array(timestampRequest(hash, Buffer.from([1, 2, 3]))).buffer);
    expect(request.certReq).toBe(true);
  });

  it('refuses a reply for another hash, and an HTTP error', async () => {
    const hash = createHash('sha256').update('manifest').digest();
    mode = 'other-hash';
    await expect(rfc3161Timestamp(url, hash)).rejects.toThrow(/another hash/);
    mode = 'http-error';
    await expect(rfc3161Timestamp(url, hash)).rejects.toThrow(/HTTP 500/);
    mode = 'ok';
  });
});
