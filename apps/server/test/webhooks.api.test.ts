import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorTexts } from '@kyc/contracts';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { insertEndpoint, listDeliveries } from '../src/features/webhooks/store.js';
import { generateWebhookSecret, signPayload, verifySignature } from '../src/features/webhooks/signing.js';
import { verificationEndOf } from '../src/features/webhooks/verification-events.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { receiver } from './support/webhook-receiver.js';
import { demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { waitFor } from './results/support.js';

describe('webhook signatures', () => {
  it('verify what was signed, and refuse a changed body, another secret or an old timestamp', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', type: 'verification.completed' });
    const now = 1_800_000_000;
    const header = signPayload(secret, body, now);
    expect(verifySignature(secret, body, header, now + 10)).toBe(true);
    expect(verifySignature(secret, `${body} `, header, now)).toBe(false);
    expect(verifySignature(generateWebhookSecret(), body, header, now)).toBe(false);
    expect(verifySignature(secret, body, header, now + 3600)).toBe(false);
  });

  it('a finished event completes a verification; a cancellation or the retry-limit report abandons it; other steps do not end it', () => {
    const ev = (status: string, step: string, description = '') => ({ step, event: JSON.stringify({ status, step, description }) });
    expect(verificationEndOf(ev('OK', 'finished'))).toMatchObject({ type: 'verification.completed', status: 'OK' });
    expect(verificationEndOf(ev('FAIL', 'finished'))).toMatchObject({ type: 'verification.completed', status: 'FAIL' });
    expect(verificationEndOf(ev('INCOMPLETED', 'identificacion', errorTexts.cancelled))).toMatchObject({ type: 'verification.abandoned', reason: 'cancelled' });
    expect(verificationEndOf(ev('FAIL', 'identificacion', errorTexts.processFailure))).toMatchObject({ type: 'verification.abandoned', reason: 'attempts_exhausted' });
    expect(verificationEndOf(ev('OK', 'terminos'))).toBeUndefined();
  });
});

describe.each(engines)('webhook deliveries ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
  });
  afterAll(async () => t?.close());

  it('a finished verification is delivered signed, retried after failures with the same event id, and every attempt logged', async () => {
    const hook = await receiver(2);
    try {
      const cipher = createDataCipher(loadDataKey(t.config).key);
      const secret = generateWebhookSecret();
      const endpointId = await insertEndpoint(t.db, cipher, { grantorId: demoId, url: hook.url, secret });
      const headers = trxHeaders();
      const finished = lifecycleEvent(headers, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
      expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: finished })).statusCode).toBe(200);

      const log = await waitFor(async () => {
        const rows = await listDeliveries(t.db, endpointId);
        return rows.some((r) => r.statusCode === 200) ? rows : undefined;
      }, 30_000);
      expect(log.map((r) => r.statusCode).reverse()).toEqual([500, 500, 200]);
      expect(hook.received).toHaveLength(3);
      const events = hook.received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> });
      expect(new Set(events.map((e) => e.id)).size).toBe(1);
      expect(events[0]).toMatchObject({ type: 'verification.completed', data: { uuidTrx: headers.transaccion, uuidUser: headers.cliente, status: 'OK' } });
      expect(['GREEN', 'YELLOW', 'RED']).toContain(events[0]!.data.semaforo);
      // No personal data travels in the webhook: the lender reads it with its secret key.
      expect(hook.received[0]!.body).not.toContain('María');
      for (const r of hook.received) expect(verifySignature(secret, r.body, r.signature, Math.floor(Date.now() / 1000))).toBe(true);
    } finally {
      hook.server.close();
    }
  });

  it('a cancelled journey sends verification.abandoned; a step of a journey under way sends nothing', async () => {
    const hook = await receiver(0);
    try {
      const cipher = createDataCipher(loadDataKey(t.config).key);
      await insertEndpoint(t.db, cipher, { grantorId: demoId, url: hook.url, secret: generateWebhookSecret() });
      const headers = trxHeaders();
      await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) });
      const cancel = lifecycleEvent(headers, { step: 'identificacion', event: JSON.stringify({ status: 'INCOMPLETED', step: 'identificacion', description: errorTexts.cancelled }) });
      expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: cancel })).statusCode).toBe(200);
      const mine = await waitFor(async () => {
        const found = hook.received.map((r) => JSON.parse(r.body) as { type: string; data: { uuidTrx: string; reason: string } }).filter((e) => e.data.uuidTrx === headers.transaccion);
        return found.length > 0 ? found : undefined;
      }, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hook.received.map((r) => JSON.parse(r.body) as { data: { uuidTrx: string } }).filter((e) => e.data.uuidTrx === headers.transaccion)).toHaveLength(1);
      expect(mine[0]).toMatchObject({ type: 'verification.abandoned', data: { reason: 'cancelled' } });
    } finally {
      hook.server.close();
    }
  });
});
