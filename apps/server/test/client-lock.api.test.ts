import { randomUUID } from 'node:crypto';
import { errorTexts } from '@kyc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLockUntil } from '../src/store/transactions.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';

/** docs/flow.md §4 "Lockout", held by the server for the grantor's client, not only by the browser's storage. */
describe.each(engines)('a lock outlives its transaction ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => t?.close());

  const params = (h: ReturnType<typeof trxHeaders>) => t.app.inject({ method: 'GET', url: '/v1/params', headers: h });
  const rows = async (uuidTrx: string) => (await t.db.selectFrom('transactions').select('uuid_trx').where('uuid_trx', '=', uuidTrx).execute()).length;

  /** The failure report after the attempts ran out ('Finalizado por reintentos'), which locks for the hour. */
  async function failByRetries(h: ReturnType<typeof trxHeaders>) {
    await acceptConsents(t.app, h);
    const event = JSON.stringify({ status: 'FAIL', step: 'identificacion', description: errorTexts.processFailure });
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: h, payload: lifecycleEvent(h, { step: 'identificacion', event }) });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('refuses a new transaction of the same client until the lock ends, saying until when, and creates nothing', async () => {
    const cliente = randomUUID();
    const first = trxHeaders('demo', { cliente });
    const before = Date.now();
    await failByRetries(first);

    // A new start from a browser whose storage was cleared, with the cliente id the grantor sends again.
    const again = trxHeaders('demo', { cliente });
    const refused = await params(again);
    expect(refused.statusCode, refused.body).toBe(429);
    const body = refused.json() as { message_client: string; locked_until: string };
    expect(body.message_client).toBe(errorTexts.attemptsExceeded);
    const until = Date.parse(body.locked_until);
    expect(until).toBeGreaterThanOrEqual(before + 59 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    expect(await rows(again.transaccion)).toBe(0);
    // Every call that would open it is refused alike (the consent, a capture).
    const consent = await t.app.inject({
      method: 'POST',
      url: '/v1/celd_events',
      headers: again,
      payload: {
        uuid_clt: cliente,
        uuid_trx: again.transaccion,
        uuid_oto: '00000000-0000-4000-8000-000000000001',
        paso: 'terminos',
        tipo: 'Aceptación',
        dato: '{}',
        finished: false,
        time_stamp: new Date().toISOString(),
      },
    });
    expect(consent.statusCode).toBe(429);
    expect(await rows(again.transaccion)).toBe(0);

    // Another client of the same grantor is not concerned.
    expect((await params(trxHeaders())).statusCode).toBe(200);

    // Once the hour has passed, the client starts again.
    await setLockUntil(t.db, first.transaccion.toLowerCase(), new Date(Date.now() - 1000).toISOString());
    expect((await params(again)).statusCode).toBe(200);
    expect(await rows(again.transaccion)).toBe(1);
  });

  it('the client of another grantor with the same id is not locked', async () => {
    const cliente = randomUUID();
    await failByRetries(trxHeaders('demo', { cliente }));
    const { insertGrantor } = await import('../src/store/grantors.js');
    const { generateApiKey } = await import('../src/crypto/apikeys.js');
    const key = generateApiKey();
    await insertGrantor(t, { id: randomUUID(), name: 'Crédito Norte', apiKey: key });
    expect((await params(trxHeaders(key, { cliente }))).statusCode).toBe(200);
  });
});
