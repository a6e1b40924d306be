import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { waitFor } from './results/support.js';
import { finishWithWebhook, receiver, type WebhookReceiver } from './support/webhook-receiver.js';

// One id follows a request from the API's log line to the job it enqueued and the worker's lines running it.
describe.each(engines)('request id ($name)', (engine) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off', LOG_LEVEL: 'info' }, { jobs: { pollMs: 50 }, logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    hook = await receiver(0);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => hook?.server.close(resolve));
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
    const requestId = `req-${Date.now()}-finished`;
    const { headers, response } = await finishWithWebhook(t, hook.url, requestId);
    expect(response.statusCode).toBe(200);

    const job = await t.db.selectFrom('jobs').select(['id', 'request_id']).where('uuid_trx', '=', headers.transaccion).executeTakeFirstOrThrow();
    expect(job.request_id).toBe(requestId);
    const done = await waitFor(async () => lines.find((line) => line.msg === 'job done' && line.jobId === job.id));
    expect(done).toMatchObject({ reqId: requestId, kind: 'webhook' });
    expect(lines.find((line) => line.msg === 'job started' && line.jobId === job.id)).toMatchObject({ reqId: requestId });
    expect(lines.find((line) => line.msg === 'request completed' && line.reqId === requestId)).toBeDefined();
  });
});
