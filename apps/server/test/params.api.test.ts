import { randomUUID } from 'node:crypto';
import { errorTexts, grantorParamDefaults, grantorParamIds } from '@kyc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertGrantor, replaceApiKey, setGrantorActive, writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, demoKey, trxHeaders } from './support/fixtures.js';

type Param = { idCampo: string; valor: string };
const paramValue = (list: Param[], id: string) => list.find((p) => p.idCampo === id)?.valor;

describe.each(engines)('grantor parameters ($name)', (engine) => {
  let t: TestApp;
  const otherId = randomUUID();
  const otherKey = generateApiKey();
  const countTransactions = async () =>
    Number(
      (
        await t.db
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp(engine);
    await insertGrantor(t, { id: otherId, name: 'Crédito Norte', apiKey: otherKey });
  });
  afterAll(async () => t?.close());

  it('returns every §3 parameter for the demo key, with defaults, and creates the transaction', async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { status: number; payload: Param[] };
    expect(body.status).toBe(200);
    const ids = body.payload.map((p) => p.idCampo);
    for (const id of grantorParamIds) expect(ids).toContain(id);
    expect(paramValue(body.payload, 'APIKEY')).toBe(demoKey);
    expect(paramValue(body.payload, 'ID_OTORGANTE')).toBe(demoId);
    expect(paramValue(body.payload, 'NOMBRE_CORTO')).toBe('Demo');
    expect(paramValue(body.payload, 'RAZON_SOCIAL')).toBe('Financiera Demo S.A. de C.V.');
    expect(paramValue(body.payload, 'INTENTOS_VIDEO_TOKEN')).toBe('3');
    expect(paramValue(body.payload, 'ENABLE_RENAPO')).toBe(grantorParamDefaults.ENABLE_RENAPO);
    expect(paramValue(body.payload, 'LOGO_OTORGANTE')).toMatch(/^data:image\/svg\+xml;base64,/);

    const row = await t.db.selectFrom('transactions').selectAll().where('uuid_trx', '=', headers.transaccion).executeTakeFirst();
    expect(row).toMatchObject({ uuid_user: headers.cliente, grantor_id: demoId, current_step: null });
  });

  it('resumes the transaction on a second call', async () => {
    const headers = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    const before = await countTransactions();
    const res = await t.app.inject({ method: 'GET', url: '/v1/params?idOtorgante=x', headers });
    expect(res.statusCode).toBe(200);
    expect(await countTransactions()).toBe(before);
  });

  it('refuses a wrong api key with 401 and the Verifica tu URL text, creating nothing', async () => {
    const before = await countTransactions();
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders('not-a-key') });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: 'Invalid api key', message_client: errorTexts.badUrl });
    expect(await countTransactions()).toBe(before);
  });

  it("refuses another grantor's transaction id with 403 and leaves it unchanged", async () => {
    const headers = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    const stored = await t.db.selectFrom('transactions').selectAll().where('uuid_trx', '=', headers.transaccion).executeTakeFirst();
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: { ...headers, apikey: otherKey } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, message: 'La transacción no pertenece a este otorgante' });
    const after = await t.db.selectFrom('transactions').selectAll().where('uuid_trx', '=', headers.transaccion).executeTakeFirst();
    expect(after).toEqual(stored);
  });

  it('refuses the same transaction with another cliente (403)', async () => {
    const headers = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: { ...headers, cliente: randomUUID() } });
    expect(res.statusCode).toBe(403);
  });

  it('treats upper-case ids as the same transaction', async () => {
    const headers = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers });
    const upper = { ...headers, transaccion: headers.transaccion.toUpperCase(), cliente: headers.cliente.toUpperCase() };
    const before = await countTransactions();
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: upper })).statusCode).toBe(200);
    expect(await countTransactions()).toBe(before);
  });

  it('answers 400 naming a missing or malformed header, creating nothing', async () => {
    const before = await countTransactions();
    const { cliente: _omitted, ...withoutCliente } = trxHeaders();
    const missing = await t.app.inject({ method: 'GET', url: '/v1/params', headers: withoutCliente });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('header cliente is missing');
    const malformed = await t.app.inject({ method: 'GET', url: '/v1/params', headers: { ...trxHeaders(), transaccion: '123' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('header transaccion');
    expect(await countTransactions()).toBe(before);
  });

  it('serves public parameters by grantor id without the api key', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/public/params/${demoId.toUpperCase()}?idOtorgante=${demoId}` });
    expect(res.statusCode).toBe(200);
    const payload = (res.json() as { payload: Param[] }).payload;
    expect(payload.map((p) => p.idCampo)).not.toContain('APIKEY');
    expect(paramValue(payload, 'COLOR_PRIMARIO')).toBe('#0B4F8A');
    expect(paramValue(payload, 'NOMBRE_CORTO')).toBe('Demo');
  });

  it('answers 404 for an unknown or inactive grantor on the public endpoint', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `/v1/public/params/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, message_client: errorTexts.badUrl });
    const id = randomUUID();
    await insertGrantor(t, { id, name: 'Inactiva', apiKey: generateApiKey(), active: false });
    expect((await t.app.inject({ method: 'GET', url: `/v1/public/params/${id}` })).statusCode).toBe(404);
  });

  it('uses the grantor name for NOMBRE_CORTO and RAZON_SOCIAL when they are not set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(otherKey) });
    const payload = (res.json() as { payload: Param[] }).payload;
    expect(paramValue(payload, 'NOMBRE_CORTO')).toBe('Crédito Norte');
    expect(paramValue(payload, 'RAZON_SOCIAL')).toBe('Crédito Norte');
    expect(paramValue(payload, 'ID_OTORGANTE')).toBe(otherId);
  });

  it('answers a changed parameter or a rotated key at once (the sent document follows writes)', async () => {
    const id = randomUUID();
    const key = generateApiKey();
    await insertGrantor(t, { id, name: 'Cambia Pronto', apiKey: key });
    const read = async (apiKey: string) => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(apiKey) });
      return { status: res.statusCode, type: res.headers['content-type'], payload: (res.json() as { payload?: Param[] }).payload ?? [] };
    };
    const first = await read(key);
    expect(first).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    expect(paramValue(first.payload, 'COLOR_PRIMARIO')).toBe(grantorParamDefaults.COLOR_PRIMARIO);
    expect((await read(key)).payload).toEqual(first.payload);

    await writeParams(t, id, { COLOR_PRIMARIO: '#112233' });
    expect(paramValue((await read(key)).payload, 'COLOR_PRIMARIO')).toBe('#112233');

    const rotated = generateApiKey();
    await replaceApiKey(t, id, rotated);
    expect((await read(key)).status).toBe(401);
    const after = await read(rotated);
    expect(paramValue(after.payload, 'APIKEY')).toBe(rotated);
    expect(paramValue(after.payload, 'COLOR_PRIMARIO')).toBe('#112233');
  });

  it('refuses the key of a deactivated grantor', async () => {
    const id = randomUUID();
    const key = generateApiKey();
    await insertGrantor(t, { id, name: 'Pronto Inactiva', apiKey: key });
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(key) })).statusCode).toBe(200);
    await setGrantorActive(t, id, false);
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(key) })).statusCode).toBe(401);
  });
});

describe.each(engines)('DEMO_GRANTOR=false ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { DEMO_GRANTOR: 'false' });
  });
  afterAll(async () => t?.close());

  it('refuses the demo key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(demoKey) });
    expect(res.statusCode).toBe(401);
  });
});
