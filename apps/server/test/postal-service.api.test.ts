import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { sampleCatalogueFacts } from '../src/features/postal/index.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';

describe.each(engines)('postal codes in the running service ($name)', (engine) => {
  let t: TestApp;
  const otherKey = generateApiKey();

  beforeAll(async () => {
    t = await startTestApp(engine);
    await insertGrantor(t, { id: randomUUID(), name: 'Crédito Norte', apiKey: otherKey });
  });
  afterAll(async () => t?.close());

  it('seeds the sample catalogue with the demo grantor and answers a lookup', async () => {
    const headers = trxHeaders();
    const facts = sampleCatalogueFacts;
    const lookup = async (cp: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/postalcodes', headers, payload: { address: { cp }, uuid: headers.cliente } });
      expect(res.statusCode).toBe(200);
      return res.json().payload.address as Array<{ asentamiento: string; municipio: string; estado: string }>;
    };
    expect(await lookup(facts.singleSettlement.cp)).toEqual(facts.singleSettlement.settlements);
    expect(await lookup(facts.severalSettlements.cp)).toEqual(facts.severalSettlements.settlements);
    expect(await lookup('99999')).toEqual([]);
  });

  it('refuses a wrong api key and a transaction of another grantor, and a malformed postal code', async () => {
    const headers = trxHeaders();
    const body = { address: { cp: '06700' }, uuid: headers.cliente };
    expect((await t.app.inject({ method: 'POST', url: '/v1/postalcodes', headers: { ...headers, apikey: 'nope' }, payload: body })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/v1/postalcodes', headers, payload: body })).statusCode).toBe(200);
    const foreign = await t.app.inject({ method: 'POST', url: '/v1/postalcodes', headers: { ...headers, apikey: otherKey }, payload: body });
    expect(foreign.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'POST', url: '/v1/postalcodes', headers, payload: { address: { cp: '6700' }, uuid: headers.cliente } });
    expect(bad.statusCode).toBe(400);
  });
});
