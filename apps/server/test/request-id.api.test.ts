import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { insertEndpoint } from '../src/features/webhooks/store.js';
import { generateWebhookSecret } from '../src/features/webhooks/signing.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { waitFor } from './results/support.js';

// One id follows a request from the API's log line to the job it enqueued and the worker's lines running it.
describe.each(engines)('request id ($name)', (engine) => {
  let t: TestApp;
  let hook: Server;
  let hookUrl = '';
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off', LOG_LEVEL: 'info' }, { jobs: { pollMs: 50 }, logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    hook = createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => hook?.close(resolve));
  });

  it('is answered in X-Request-Id: a plain id from the proxy is kept, anything else replaced by a new one', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-0001.abc:def' } });
    expect(kept.headers['x-request-id']).toBe('proxy-0001.abc:def');
    for (const given of [undefined, 'short', 'has spaces in it', 'x'.repeat(200), 'line\u2028break-0001']) {
      const response = await t.app.inject({ method: 'GET', url: '/healthz', headers: given === undefined ? {} : { 'x-request-id': given } });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('a job enqueued by a request carries its id, and the worker logs it when running the job', async () => {
    const cipher = createDataCipher(loadDataKey(t.config).key);
    await insertEndpoint(t.db, cipher, { grantorId: demoId, url: hookUrl, secret: generateWebhookSecret() });
    const requestId = `req-${Date.now()}-finished`;
    const headers = trxHeaders();
    const finished = lifecycleEvent(headers, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
    const response = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: { ...headers, 'x-request-id': requestId }, payload: finished });
    expect(response.statusCode).toBe(200);

    const job = await t.db.selectFrom('jobs').select(['id', 'request_id']).where('uuid_trx', '=', headers.transaccion).executeTakeFirstOrThrow();
    expect(job.request_id).toBe(requestId);
    const done = await waitFor(async () => lines.find((line) => line.msg === 'job done' && line.jobId === job.id));
    expect(done).toMatchObject({ reqId: requestId, kind: 'webhook' });
    expect(lines.find((line) => line.msg === 'job started' && line.jobId === job.id)).toMatchObject({ reqId: requestId });
    expect(lines.find((line) => line.msg === 'request completed' && line.reqId === requestId)).toBeDefined();
  });
});
