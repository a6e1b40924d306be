import { randomUUID } from 'node:crypto';
import { credentials, routes, type RouteName } from '@kyc/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { createTransactionTokens } from '../src/crypto/transaction-token.js';
import { insertSecretKey } from '../src/secret-keys/store.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';
import { imageSample, multipartBody, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
interface Operation {
  method: string;
  path: string;
  operationId: string;
  security?: Array<Record<string, string[]>>;
  multipart?: string[];
}

/** The victim's personal data, as the flow stored it; none of it may come back to the publishable key alone. */
const curp = 'NUZM900215MDFXXR09';
const personal = ['María', 'Núñez', 'Zúñiga', '5512345678', 'maria.nunez@correo.example', curp, '/v1/enlace/'];

/** A valid JSON body per call, so that each request reaches its handler (a 400 would prove nothing). */
function bodyOf(name: RouteName, h: Headers): unknown {
  const uuid = h.cliente;
  const bodies: Partial<Record<RouteName, unknown>> = {
    updateCycle: lifecycleEvent(h, { nombreCompleto: 'Intruso', telefono: '5500000000', correoElectronico: 'x@example.com' }),
    auditEvent: auditEvent(h, { dato: 'sonda' }),
    renapo: { uuid, turn: -1, curp: 'XAXX010101HDFXXX04' },
    ine: { uuid, turn: -1, data: { cic: '123456789' }, fingerprint: { indexLeft: null, indexRight: '' } },
    videoTokenCode: { uuid },
    tokenSms: { client: { uuid, platform: 'web' }, phone: { number: '5500000000', areaCode: '52' } },
    verifySms: { client: { uuid, platform: 'web' }, phone: { number: '5500000000', areaCode: '52', token: '123456' } },
    processDocuments: { uuidUser: uuid },
    postalCodes: { address: { cp: '06700' }, uuid },
    nom151: { uuidUser: uuid, custom_uuid: 'sonda', tipo_envio: 'SEMAFORO', semaforo: 'red' },
    emailResult: { tipo_envio: 'SEMAFORO', semaforo: 'red', uuidUser: uuid, name: 'x', email: 'intruso@example.com', custom_uuid: 'sonda' },
    launcherIdentity: { uuid },
    launcherAuth: { user: { uuid, key: h.apikey } },
    launcherVerify: { token: 'x'.repeat(20), referer: 'https://partner.example' },
    recordRemoteDescription: { type: 'answer', sdp: 'v=0' },
  };
  return bodies[name];
}

/** Every call of /openapi.json as the holder of the publishable key and the victim's transaction and user ids. */
async function probe(t: TestApp, op: Operation, h: Headers, png: Buffer) {
  const name = op.operationId as RouteName;
  const ids: Record<string, string> = { uuidTrx: h.transaccion, uuidUser: h.cliente, idOtorgante: demoId, id: 'sonda', token: 'x'.repeat(40) };
  const url = op.path.replace(/\{(\w+)\}/g, (_, key: string) => ids[key] ?? 'x') + (name === 'queryScore' ? '?isDesktop=true&generate=true' : '');
  const request: InjectOptions = { method: op.method.toUpperCase() as InjectOptions['method'], url, headers: { ...h, origin: 'https://partner.example' } };
  if (op.multipart) {
    const parts: FormPart[] = op.multipart.map((field) =>
      ['ine', 'file', 'videotoken', 'reference', 'probe'].includes(field)
        ? { name: field, filename: 'a.png', contentType: 'image/png', data: png }
        : { name: field, value: field === 'side' ? 'front' : field.startsWith('uuid') ? h.cliente : field === 'folder' ? `${demoId}/${h.cliente}/domicilio` : 'x' },
    );
    const { payload, contentType } = multipartBody(parts);
    request.payload = payload;
    request.headers = { ...request.headers, 'content-type': contentType };
  } else {
    const body = bodyOf(name, h);
    if (body !== undefined) request.payload = body as InjectOptions['payload'];
  }
  return t.app.inject(request);
}

describe.each(engines)('credentials per call ($name)', (engine) => {
  let t: TestApp;
  let operations: Operation[];
  let png: Buffer;
  const victim = trxHeaders();
  let victimToken: string;
  const otherKey = generateApiKey();
  const otherGrantor = randomUUID();
  const otherSecret = `sk_live_${randomUUID().replaceAll('-', '')}`;

  beforeAll(async () => {
    t = await startTestApp(engine);
    png = await imageSample('png', 640, 480);
    await insertGrantor(t, { id: otherGrantor, name: 'Crédito Norte', apiKey: otherKey });
    await insertSecretKey(t.db, { grantorId: otherGrantor, key: otherSecret, label: 'other' });
    // The victim's journey: started by its browser (which keeps the token), then its data as the flow stores it.
    const started = await t.app.inject({ method: 'GET', url: '/v1/params', headers: victim });
    expect(started.statusCode).toBe(200);
    victimToken = String(started.headers['x-transaction-token'] ?? '');
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: victim, payload: lifecycleEvent(victim) })).statusCode).toBe(200);
    await acceptConsents(t.app, victim, ['terminos']);
    const renapo = await t.app.inject({
      method: 'POST',
      url: '/v1/renapo',
      headers: { ...victim, ...(victimToken ? { 'x-transaction-token': victimToken } : {}) },
      payload: { uuid: victim.cliente, turn: -1, curp },
    });
    expect(renapo.statusCode, renapo.body).toBe(200);

    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { operationId: string; security?: Operation['security']; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const form = op.requestBody?.content?.['multipart/form-data']?.schema?.properties;
        return { method, path, operationId: op.operationId, ...(op.security ? { security: op.security } : {}), ...(form ? { multipart: Object.keys(form) } : {}) };
      }),
    );
  }, 60_000);
  afterAll(async () => t?.close());

  it('classifies every operation of /openapi.json, and its security says so', () => {
    expect(operations.map((op) => op.operationId).sort()).toEqual(Object.keys(routes).sort());
    for (const op of operations) {
      const kind = credentials[op.operationId as RouteName];
      const schemes = (op.security ?? []).map((alternative) => Object.keys(alternative).sort().join('+'));
      if (kind === 'server') expect(schemes, op.operationId).toEqual(['secretKey']);
      if (kind === 'flowRead') expect(schemes, op.operationId).toEqual(['publishableKey+transactionToken', 'publishableKey+secretKey']);
      if (kind === 'flow')
        expect(
          schemes.every((s) => s === 'publishableKey' || s === 'resultLinkToken'),
          op.operationId,
        ).toBe(true);
    }
  });

  it("answers no call of the publishable key and the victim's ids with anyone's personal data", async () => {
    const leaks: string[] = [];
    for (const op of operations) {
      const res = await probe(t, op, victim, png);
      const kind = credentials[op.operationId as RouteName];
      const text = `${JSON.stringify(res.headers)}\n${res.body}`;
      for (const datum of personal) if (text.includes(datum)) leaks.push(`${op.operationId} (${res.statusCode}) returned ${datum}`);
      if (res.headers['x-transaction-token']) leaks.push(`${op.operationId} issued a token for the victim's transaction`);
      if ((kind === 'server' || kind === 'flowRead') && res.statusCode !== 401 && res.statusCode !== 403) {
        leaks.push(`${op.operationId} answered ${res.statusCode} to the publishable key alone`);
      }
      if (process.env.PROBE_LOG) console.log(op.operationId, res.statusCode, res.body.slice(0, 160));
      expect(res.statusCode, `${op.operationId}: ${res.body}`).toBeLessThan(500);
    }
    expect(leaks).toEqual([]);
  }, 120_000);

  it('reads the events with a secret server key of the owner only (401 without, 403 for another grantor)', async () => {
    const url = `/v1/transactions/${victim.transaccion}/events`;
    const own = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer demo-secret' } });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.body).toContain('María Fernanda Núñez Zúñiga');
    const publishable = await t.app.inject({ method: 'GET', url, headers: { apikey: victim.apikey } });
    expect(publishable.statusCode).toBe(401);
    expect(publishable.json().message).toMatch(/Authorization/);
    const asBearer = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${victim.apikey}` } });
    expect(asBearer.statusCode).toBe(401);
    expect(asBearer.json().message).toMatch(/publishable api key/);
    const foreign = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${otherSecret}` } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('María');
    const missing = await t.app.inject({ method: 'GET', url: `/v1/transactions/${randomUUID()}/events`, headers: { authorization: 'Bearer demo-secret' } });
    expect(missing.statusCode).toBe(404);
  });

  it("lets the customer's browser read its own score with its token, and a server with the grantor's secret", async () => {
    expect(victimToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const url = `/v1/query_score/${victim.cliente}/${victim.transaccion}`;
    const withToken = await t.app.inject({ method: 'GET', url, headers: { ...victim, 'x-transaction-token': victimToken } });
    expect(withToken.statusCode, withToken.body).toBe(200);
    expect(withToken.json().payload.flag).toBe('RED');
    const withSecret = await t.app.inject({ method: 'GET', url, headers: { ...victim, authorization: 'Bearer demo-secret' } });
    expect(withSecret.statusCode, withSecret.body).toBe(200);
    const foreignSecret = await t.app.inject({ method: 'GET', url, headers: { ...victim, authorization: `Bearer ${otherSecret}` } });
    expect(foreignSecret.statusCode).toBe(403);

    // A token is bound to its transaction: another journey's (the attacker's own) opens nothing else.
    const mine = trxHeaders();
    const own = await t.app.inject({ method: 'GET', url: '/v1/params', headers: mine });
    const foreignToken = await t.app.inject({ method: 'GET', url, headers: { ...victim, 'x-transaction-token': String(own.headers['x-transaction-token']) } });
    expect(foreignToken.statusCode).toBe(403);
    // Resuming a transaction issues no token: the publishable key cannot mint one for a stranger's journey.
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: victim })).headers['x-transaction-token']).toBeUndefined();
    const forged = await t.app.inject({ method: 'GET', url, headers: { ...victim, 'x-transaction-token': `${victimToken.slice(0, -4)}AAAA` } });
    expect(forged.statusCode).toBe(401);
    const expired = await createTransactionTokens(t.config).issue({ uuidTrx: victim.transaccion, uuidUser: victim.cliente, grantorId: demoId }, new Date(Date.now() - 13 * 3_600_000));
    const late = await t.app.inject({ method: 'GET', url, headers: { ...victim, 'x-transaction-token': expired } });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toMatch(/expired/);

    // A refused read changes nothing: not even the transaction it names is created.
    const fresh = trxHeaders();
    const refused = await t.app.inject({ method: 'GET', url: `/v1/query_score/${fresh.cliente}/${fresh.transaccion}`, headers: fresh });
    expect(refused.statusCode).toBe(401);
    expect(await t.db.selectFrom('transactions').select('uuid_trx').where('uuid_trx', '=', fresh.transaccion).executeTakeFirst()).toBeUndefined();
  });
});
