import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorTexts, smsTexts } from '@kyc/contracts';
import { outboxDir, readOutbox } from '../src/features/sms/senders.js';
import { smsRules } from '../src/features/sms/rules.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, demoId, trxHeaders } from './support/fixtures.js';

type Headers = ReturnType<typeof trxHeaders>;

async function acceptConsent(t: TestApp, headers: Headers) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/celd_events',
    headers,
    payload: auditEvent(headers, { paso: 'consulta_historial', tipo: 'Aceptación', dato: JSON.stringify({ version: '1', sha256: 'a'.repeat(64) }) }),
  });
  expect(res.statusCode).toBe(200);
}

function sendCode(t: TestApp, headers: Headers, number = '5512345678', areaCode = '52') {
  return t.app.inject({
    method: 'POST',
    url: '/v1/token_sms_ac',
    headers,
    payload: { client: { uuid: headers.cliente, platform: 'web' }, phone: { number, areaCode } },
  });
}

function verifyCode(t: TestApp, headers: Headers, token: string, number = '5512345678', areaCode = '52') {
  return t.app.inject({
    method: 'PATCH',
    url: '/v1/verify_token_sms/verify',
    headers,
    payload: { client: { uuid: headers.cliente, platform: 'web' }, phone: { number, areaCode, token } },
  });
}

async function lastCode(t: TestApp, to: string): Promise<string> {
  const sent = (await readOutbox(outboxDir(t.dataDir))).filter((m) => m.to === to);
  const text = sent.at(-1)?.text ?? '';
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code sent to ${to}`);
  return code;
}

/** Moves the transaction's codes back in time (the 30 s resend wait, the 10 min expiry). */
async function age(t: TestApp, uuidTrx: string, ms: number) {
  const rows = await t.db.selectFrom('sms_codes').select(['id', 'created_at', 'expires_at']).where('uuid_trx', '=', uuidTrx).execute();
  for (const row of rows) {
    await t.db
      .updateTable('sms_codes')
      .set({ created_at: new Date(Date.parse(row.created_at) - ms).toISOString(), expires_at: new Date(Date.parse(row.expires_at) - ms).toISOString() })
      .where('id', '=', row.id)
      .execute();
  }
}

describe.each(engines)('SMS codes ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await writeParams(t, demoId, { ENABLE_CONSULTA_HISTORIAL: 'true' });
  });

  it('sends nothing for a grantor without the credit-history consent', async () => {
    await writeParams(t, demoId, { ENABLE_CONSULTA_HISTORIAL: 'false' });
    try {
      const headers = trxHeaders();
      await acceptConsent(t, headers);
      expect((await sendCode(t, headers)).statusCode).toBe(403);
    } finally {
      await writeParams(t, demoId, { ENABLE_CONSULTA_HISTORIAL: 'true' });
    }
  });
  afterAll(async () => t?.close());

  it('sends a 6-digit code to the outbox, stores only its hash, and verifies it once', async () => {
    const headers = trxHeaders();
    await acceptConsent(t, headers);
    const res = await sendCode(t, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200 });
    const code = await lastCode(t, '+525512345678');
    expect(code).toMatch(/^\d{6}$/);

    const rows = await t.db.selectFrom('sms_codes').selectAll().where('uuid_trx', '=', headers.transaccion).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(code);
    expect(row.phone_enc).not.toContain('5512345678');
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(smsRules.ttlMs);

    const ok = await verifyCode(t, headers, code);
    expect(ok.statusCode).toBe(200);
    const evidence = await t.db.selectFrom('evidence').selectAll().where('uuid_trx', '=', headers.transaccion).execute();
    // The credit-history acceptance (consent evidence) and the proved number.
    expect(evidence.map((e) => e.kind).sort()).toEqual(['consentimiento', 'telefono_verificado']);
  });

  it('refuses a wrong code with the spec text, and spends the code after 5 wrong attempts', async () => {
    const headers = trxHeaders();
    await acceptConsent(t, headers);
    expect((await sendCode(t, headers, '5511112222')).statusCode).toBe(200);
    const code = await lastCode(t, '+525511112222');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < smsRules.maxAttempts; i += 1) {
      const res = await verifyCode(t, headers, wrong, '5511112222');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message_client: errorTexts.smsFailed });
    }
    const locked = await verifyCode(t, headers, code, '5511112222');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ message_client: smsTexts.exhausted });
  });

  it('refuses a fast resend, accepts one after 30 s (the older code stops working), caps sends at 5', async () => {
    const headers = trxHeaders();
    await acceptConsent(t, headers);
    expect((await sendCode(t, headers, '5533334444')).statusCode).toBe(200);
    const first = await lastCode(t, '+525533334444');
    const soon = await sendCode(t, headers, '5533334444');
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    expect(soon.json()).toMatchObject({ message_client: smsTexts.wait });

    await age(t, headers.transaccion, smsRules.resendAfterMs);
    expect((await sendCode(t, headers, '5533334444')).statusCode).toBe(200);
    const second = await lastCode(t, '+525533334444');
    // Only the newest code counts: the older one is now a wrong code.
    if (first !== second) expect((await verifyCode(t, headers, first, '5533334444')).statusCode).toBe(400);

    for (let sent = 2; sent < smsRules.maxSends; sent += 1) {
      await age(t, headers.transaccion, smsRules.resendAfterMs);
      expect((await sendCode(t, headers, '5533334444')).statusCode).toBe(200);
    }
    await age(t, headers.transaccion, smsRules.resendAfterMs);
    const capped = await sendCode(t, headers, '5533334444');
    expect(capped.statusCode).toBe(429);
    expect(capped.json()).toMatchObject({ message_client: smsTexts.sendLimit });
    expect((await verifyCode(t, headers, await lastCode(t, '+525533334444'), '5533334444')).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const headers = trxHeaders();
    await acceptConsent(t, headers);
    expect((await sendCode(t, headers, '5555556666')).statusCode).toBe(200);
    const code = await lastCode(t, '+525555556666');
    await age(t, headers.transaccion, smsRules.ttlMs);
    const res = await verifyCode(t, headers, code, '5555556666');
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ message_client: smsTexts.expired });
  });

  it('refuses without the consent, with the wrong prefix, another user, another number; changes nothing', async () => {
    const headers = trxHeaders();
    const none = await sendCode(t, headers);
    expect(none.statusCode).toBe(409);
    await acceptConsent(t, headers);
    expect((await sendCode(t, headers, '5512345678', '51')).statusCode).toBe(400);
    expect((await sendCode(t, headers, '55-1234')).statusCode).toBe(400);
    const otherUser = await t.app.inject({
      method: 'POST',
      url: '/v1/token_sms_ac',
      headers,
      payload: { client: { uuid: randomUUID(), platform: 'web' }, phone: { number: '5512345678', areaCode: '52' } },
    });
    expect(otherUser.statusCode).toBe(403);
    expect(await t.db.selectFrom('sms_codes').select('id').where('uuid_trx', '=', headers.transaccion).execute()).toHaveLength(0);
    expect((await verifyCode(t, headers, '123456')).statusCode).toBe(404);
  });

  it('uses prefix 51 in the DNI variant', async () => {
    await writeParams(t, demoId, { VARIANTE_DNI: 'true' });
    try {
      const headers = trxHeaders();
      await acceptConsent(t, headers);
      expect((await sendCode(t, headers, '987654321', '52')).statusCode).toBe(400);
      expect((await sendCode(t, headers, '987654321', '51')).statusCode).toBe(200);
      expect(await lastCode(t, '+51987654321')).toMatch(/^\d{6}$/);
    } finally {
      await writeParams(t, demoId, { VARIANTE_DNI: 'false' });
    }
  });
});

describe('the HTTP gateway adapter', () => {
  let gateway: Server;
  let url: string;
  const received: Array<{ auth: string | undefined; body: { to: string; text: string } }> = [];
  let failNext = false;

  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      request.on('data', (chunk: Buffer) => (data += chunk.toString()));
      request.on('end', () => resolve(data));
    });

  beforeAll(async () => {
    gateway = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as { to: string; text: string };
      if (failNext) {
        failNext = false;
        response.writeHead(503).end('down');
        return;
      }
      received.push({ auth: request.headers.authorization, body });
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"queued":true}');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`;
  });
  afterAll(async () => new Promise<void>((resolve) => gateway.close(() => resolve())));

  it('posts the message with the token; a gateway failure is a 502 that leaves no code behind', async () => {
    const t = await startTestApp(engines[0]!, { SMS_GATEWAY_URL: url, SMS_GATEWAY_TOKEN: 'secreto-de-prueba' });
    try {
      await writeParams(t, demoId, { ENABLE_CONSULTA_HISTORIAL: 'true' });
      const headers = trxHeaders();
      await acceptConsent(t, headers);
      expect((await sendCode(t, headers, '5577778888')).statusCode).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]!.auth).toBe('Bearer secreto-de-prueba');
      expect(received[0]!.body.to).toBe('+525577778888');
      const code = /\b(\d{6})\b/.exec(received[0]!.body.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(await readOutbox(outboxDir(t.dataDir))).toHaveLength(0);
      expect((await verifyCode(t, headers, code!, '5577778888')).statusCode).toBe(200);

      const other = trxHeaders();
      await acceptConsent(t, other);
      failNext = true;
      const failed = await sendCode(t, other, '5599990000');
      expect(failed.statusCode).toBe(502);
      expect(failed.json()).toMatchObject({ message_client: errorTexts.serviceUnavailable });
      expect(await t.db.selectFrom('sms_codes').select('id').where('uuid_trx', '=', other.transaccion).execute()).toHaveLength(0);
      // Not counted as a send: the user may try again at once.
      expect((await sendCode(t, other, '5599990000')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
