import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, lifecycleEvent, trxHeaders } from './support/fixtures.js';

describe.each(engines)('request logs ($name)', (engine) => {
  let t: TestApp;
  const lines: string[] = [];
  const key = generateApiKey();

  beforeAll(async () => {
    t = await startTestApp(engine, { LOG_LEVEL: 'debug' }, { logStream: { write: (line: string) => void lines.push(line) } });
    await insertGrantor(t, { id: randomUUID(), name: 'Bitácora SA', apiKey: key });
  });
  afterAll(async () => t?.close());

  it('carry ids and outcomes, never api keys or personal data', async () => {
    const headers = trxHeaders(key);
    const inject = (o: InjectOptions) => t.app.inject(o);
    expect((await inject({ method: 'GET', url: '/v1/params', headers })).statusCode).toBe(200);
    expect((await inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) })).statusCode).toBe(200);
    expect((await inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers) })).statusCode).toBe(200);
    await inject({ method: 'GET', url: `/v1/transactions/${headers.transaccion}/events`, headers: { apikey: key } });
    await inject({ method: 'POST', url: '/v1/update_cycle', headers: { ...headers, apikey: `${key}x` }, payload: lifecycleEvent(headers) });
    await inject({ method: 'GET', url: `/${key}?jwt=eyJhbGciOi.secret`, headers: { accept: 'text/html' } });
    await inject({ method: 'GET', url: `/${key}%c0` });

    const log = lines.join('');
    expect(log).toContain(headers.transaccion);
    expect(log).toContain('lifecycle event stored');
    for (const secret of [key, 'eyJhbGciOi', 'María', 'Núñez', '5512345678', 'maria.nunez', 'Ramírez']) {
      expect(log, secret).not.toContain(secret);
    }
  });

  it('write one line per request, with its method, route and status', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(key) });
    const entries = lines.map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number } });
    const perRequest = entries.filter((entry) => entry.msg === 'request completed' || entry.msg === 'incoming request');
    expect(perRequest).toHaveLength(1);
    expect(perRequest[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/v1/params' }, res: { statusCode: 200 } });
  });
});
