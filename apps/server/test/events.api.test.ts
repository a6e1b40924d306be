import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, demoKey, lifecycleEvent, trxHeaders } from './support/fixtures.js';

describe.each(engines)('lifecycle and audit events ($name)', (engine) => {
  let t: TestApp;
  const otherKey = generateApiKey();
  const count = async (table: 'lifecycle_events' | 'audit_events' | 'transactions') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () => [await count('lifecycle_events'), await count('audit_events'), await count('transactions')];

  beforeAll(async () => {
    t = await startTestApp(engine, { JSON_BODY_LIMIT: '4096' });
    await insertGrantor(t, { id: randomUUID(), name: 'Otra Financiera', apiKey: otherKey });
  });
  afterAll(async () => t?.close());

  it('stores a lifecycle event encrypted and moves the transaction to its step', async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) });
    expect(res.statusCode).toBe(200);
    const { payload } = res.json() as { status: number; payload: { id: string } };
    const row = await t.db.selectFrom('lifecycle_events').selectAll().where('id', '=', payload.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uuid_trx: headers.transaccion, step: 'terminos' });
    expect(row.payload_enc).toMatch(/^v1:[0-9a-f]{8}:/);
    for (const plain of ['María', 'Núñez', '5512345678', 'maria.nunez', 'privacidad']) expect(row.payload_enc).not.toContain(plain);
    const trx = await t.db.selectFrom('transactions').selectAll().where('uuid_trx', '=', headers.transaccion).executeTakeFirstOrThrow();
    expect(trx.current_step).toBe('terminos');
  });

  it('stores an audit event encrypted and never stores the api key of its body', async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/celd_events',
      headers: { ...headers, 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Prueba' },
      payload: auditEvent(headers),
    });
    expect(res.statusCode).toBe(200);
    const raw = await t.db.selectFrom('audit_events').selectAll().where('uuid_trx', '=', headers.transaccion).execute();
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ paso: 'identificacion', tipo: 'Error', finished: 0 });
    expect(raw[0]?.payload_enc).not.toContain('Ramírez');

    const list = await t.app.inject({ method: 'GET', url: `/v1/transactions/${headers.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    const audit = (list.json() as { payload: { audit: Record<string, unknown>[] } }).payload.audit;
    expect(audit).toHaveLength(1);
    expect(audit[0]).not.toHaveProperty('apikey');
    expect(audit[0]).toMatchObject({ paso: 'identificacion', dato: expect.stringContaining('Ramírez') });
    // Evidence of who sent it: the client address and browser, recorded by the server.
    expect(audit[0]).toMatchObject({ ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (Linux; Android 14) Prueba' });
  });

  it("returns a transaction's events, in order, to the owner's key only", async () => {
    const headers = trxHeaders();
    for (const step of ['terminos', 'preparacion_identificacion', 'identificacion']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers, { step }) });
      expect(res.statusCode).toBe(200);
    }
    await t.app.inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers, { finished: true }) });

    const url = `/v1/transactions/${headers.transaccion}/events`;
    const own = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer demo-secret' } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('no-store');
    const body = own.json();
    expect(body.payload.transaction).toMatchObject({ uuidTrx: headers.transaccion, uuidUser: headers.cliente, currentStep: 'identificacion', attempts: {}, lockedUntil: null });
    expect(body.payload.lifecycle.map((e: { step: string }) => e.step)).toEqual(['terminos', 'preparacion_identificacion', 'identificacion']);
    expect(body.payload.lifecycle[0]).toMatchObject({ nombreCompleto: 'María Fernanda Núñez Zúñiga', origin: 'celd' });
    expect(body.payload.audit[0]).toMatchObject({ finished: true });

    // The publishable key reads nothing (issue #15): not even its own grantor's transaction.
    const publishable = await t.app.inject({ method: 'GET', url, headers: { apikey: demoKey } });
    expect(publishable.statusCode).toBe(401);
    expect(JSON.stringify(publishable.json())).not.toContain('María');
    expect((await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/v1/transactions/${randomUUID()}/events`, headers: { authorization: 'Bearer demo-secret' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/v1/transactions/not-a-uuid/events', headers: { authorization: 'Bearer demo-secret' } })).statusCode).toBe(400);
  });

  it("refuses an event for another grantor's transaction (403) and stores nothing", async () => {
    const headers = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    const before = await counts();
    const foreign = { ...headers, apikey: otherKey };
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: foreign, payload: lifecycleEvent(headers) });
    expect(res.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it('answers 400 to malformed JSON and stores nothing', async () => {
    const headers = trxHeaders();
    const before = await counts();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/update_cycle',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"trx_id": "x", "nombreCompleto": "Ana',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, message: 'Malformed JSON body' });
    expect(await counts()).toEqual(before);
  });

  it('answers 413 to a body over JSON_BODY_LIMIT and stores nothing', async () => {
    const headers = trxHeaders();
    const before = await counts();
    const payload = lifecycleEvent(headers, { event: 'x'.repeat(6000) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 413, message: 'Request body is larger than 4096 bytes' });
    expect(await counts()).toEqual(before);
  });

  it('answers 400 when the body names another transaction or client, creating nothing', async () => {
    const headers = trxHeaders();
    const before = await counts();
    const wrongTrx = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers, { trx_id: randomUUID() }) });
    expect(wrongTrx.statusCode).toBe(400);
    expect(wrongTrx.json().message).toContain('trx_id and client_id must equal');
    const wrongClient = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers, { client_id: randomUUID() }) });
    expect(wrongClient.statusCode).toBe(400);
    const wrongAudit = await t.app.inject({ method: 'POST', url: '/v1/celd_events', headers, payload: auditEvent(headers, { uuid_trx: randomUUID() }) });
    expect(wrongAudit.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('answers 400 naming the invalid body field', async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers, { origin: 'elsewhere' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('body field origin');
    const missingHeader = await t.app.inject({
      method: 'POST',
      url: '/v1/update_cycle',
      headers: { cliente: headers.cliente, apikey: demoKey },
      payload: lifecycleEvent(headers),
    });
    expect(missingHeader.statusCode).toBe(400);
    expect(missingHeader.json().message).toContain('header transaccion is missing');
  });

  it('answers 415 to a body that is not JSON', async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/update_cycle',
      headers: { ...headers, 'content-type': 'text/xml' },
      payload: '<event/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ status: 415 });
  });

  it('answers 404 JSON to an unknown /v1 path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here?x=1', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Route GET /v1/nothing-here not found' });
    expect((await t.app.inject({ method: 'POST', url: '/v1/params' })).statusCode).toBe(404);
    const badUrl = await t.app.inject({ method: 'GET', url: '/v1/%c0' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ status: 400, message: 'Malformed URL' });
  });
});
