import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { costOfRoute } from '../src/http/rate-limits.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, lifecycleEvent, trxHeaders } from './support/fixtures.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const lifecycleCount = async (t: TestApp, uuidTrx: string) =>
  Number(
    (
      await t.db
        .selectFrom('lifecycle_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('uuid_trx', '=', uuidTrx)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('abuse limit settings', () => {
  it('defaults, overrides and refuses a malformed limit naming the variable', () => {
    const defaults = loadConfig({}, false).rateLimits;
    expect(defaults).toMatchObject({ enabled: true, windowMs: 60_000, redisUrl: undefined });
    expect(defaults.classes.upload).toEqual({ perTransaction: 30, perIp: 300, perKey: 6000 });
    const set = loadConfig({ RATE_LIMIT_UPLOAD: '3, 4, 5', RATE_LIMIT_WINDOW_SECONDS: '10', REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMITS: 'off' }, false).rateLimits;
    expect(set).toMatchObject({ enabled: false, windowMs: 10_000, redisUrl: 'redis://127.0.0.1:6379' });
    expect(set.classes.upload).toEqual({ perTransaction: 3, perIp: 4, perKey: 5 });
    expect(() => loadConfig({ RATE_LIMIT_SMS: '3,4' })).toThrow(/RATE_LIMIT_SMS/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ EVENTS_PER_TRANSACTION: '3' })).toThrow(/EVENTS_PER_TRANSACTION/);
  });

  it('every call that costs CPU, storage, an SMS or an e-mail has a cost class', () => {
    for (const name of [
      'ocr',
      'file',
      'otp',
      'videoToken',
      'videoTokenCode',
      'publicVideoToken',
      'publicOtp',
      'idCalibrate',
      'facesCompare',
      'tokenSms',
      'verifySms',
      'emailResult',
      'updateCycle',
      'auditEvent',
      'processDocuments',
      'nom151',
      'recordConnections',
    ] as const) {
      expect(costOfRoute[name], name).toBeDefined();
    }
  });
});

describe.each(engines)('abuse limits ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // Events: 4 per transaction, 6 per client address, 20 per key a minute.
    t = await startTestApp(engine, { RATE_LIMIT_EVENTS: '4,6,20' });
  });
  afterAll(async () => t?.close());

  it('past the per-transaction limit: 429 in the error format with Retry-After, and nothing stored', async () => {
    const headers = trxHeaders();
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 6; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers), remoteAddress: '10.0.0.1' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused?.headers['content-type']).toMatch(/^application\/json/);
    const body = refused?.json() as { status: number; message: string; message_client: string };
    expect(body.status).toBe(429);
    expect(body.message).toMatch(/Too many events requests for this transaction \(at most 4 per 60 s\); retry in \d+ s/);
    expect(body.message_client).toMatch(/demasiadas solicitudes/);
    expect(await lifecycleCount(t, headers.transaccion)).toBe(4);
    // Another transaction of the same client address still passes (its own limits: address 6 and key 20).
    const other = trxHeaders();
    expect((await t.app.inject({ method: 'POST', url: '/v1/celd_events', headers: other, payload: auditEvent(other), remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
  });

  it('past the per-address limit, whatever the transaction', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const headers = trxHeaders();
      const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers), remoteAddress: '10.0.0.2' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('past the per-key limit, whatever the address', async () => {
    // The key's counter already holds the 11 earlier calls of this file that no other limit refused (a call refused
    // by its transaction or address is not counted against the key); fresh addresses and transactions do not reset it.
    let refused;
    let passed = 0;
    for (let i = 0; i < 25 && !refused; i += 1) {
      const headers = trxHeaders();
      const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers), remoteAddress: `10.1.0.${i + 1}` });
      if (res.statusCode === 429) refused = res;
      else passed += 1;
    }
    expect(passed).toBe(9);
    expect(refused?.json()).toMatchObject({ status: 429, message: expect.stringContaining('for this api key (at most 20 per 60 s)') });
  });
});

describe.each(engines)('the bound on events per transaction ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { EVENTS_PER_TRANSACTION: '10', RATE_LIMITS: 'off' });
  });
  afterAll(async () => t?.close());

  it('refuses events beyond the bound with 429 and stores none of them, also under concurrency', async () => {
    const headers = trxHeaders();
    const sends = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0
        ? t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers, { step: `paso_${i}` }) })
        : t.app.inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers) }),
    );
    const statuses = (await Promise.all(sends)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const audit = Number(
      (
        await t.db
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('uuid_trx', '=', headers.transaccion)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await lifecycleCount(t, headers.transaccion)) + audit).toBe(10);
    const late = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) });
    expect(late.statusCode).toBe(429);
    expect(late.json()).toMatchObject({ status: 429, message: expect.stringContaining('EVENTS_PER_TRANSACTION') });
    expect((await lifecycleCount(t, headers.transaccion)) + audit).toBe(10);
    // Another transaction is not affected.
    const other = trxHeaders();
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: other, payload: lifecycleEvent(other) })).statusCode).toBe(200);
  });
});

const postgres = engines.find((e) => e.name === 'postgres') ?? { name: 'sqlite' as const };

describe('two nodes share their counters through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let available = false;
  beforeAll(async () => {
    available = await redisAnswers();
    if (!available) return;
    // Per transaction only (the address and key counters of a shared Redis outlive this test).
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_EVENTS: '5,0,0' };
    a = await startTestApp(postgres, env);
    b = await startTestApp(postgres, env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('5 events per transaction in all, alternating between the nodes', async (context) => {
    if (!available) context.skip();
    const headers = trxHeaders(undefined, { transaccion: randomUUID() });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const node = i % 2 === 0 ? a : b;
      statuses.push((await node.app.inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers) })).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429, 429]);
  });
});
