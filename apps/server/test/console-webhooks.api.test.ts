import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { deliveryStatus } from '../src/features/webhooks/deliveries.js';
import { generateWebhookSecret, verifySignature } from '../src/features/webhooks/signing.js';
import { enqueueWebhookEvent } from '../src/features/webhooks/events.js';
import { deactivateEndpoint, insertEndpoint } from '../src/features/webhooks/store.js';
import { insertGrantor } from '../src/store/grantors.js';
import { waitFor } from './results/support.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { receiver } from './support/webhook-receiver.js';
import { demoId, lifecycleEvent, startedTransaction, trxHeaders } from './support/fixtures.js';

const otherKey = 'other-grantor-key-hooks-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000c3';

describe('delivery status', () => {
  it('a 2xx delivered it; a job failed for good failed it; done without a 2xx was dropped; otherwise pending', () => {
    expect(deliveryStatus('done', 200)).toBe('delivered');
    expect(deliveryStatus(null, 204)).toBe('delivered');
    expect(deliveryStatus('failed', 500)).toBe('failed');
    expect(deliveryStatus('done', null)).toBe('dropped');
    expect(deliveryStatus('pending', 500)).toBe('pending');
    expect(deliveryStatus('running', null)).toBe('pending');
  });
});

/** Issue #16: the console's webhook screen (endpoints, delivery log, replay) and blocked cases in the case list. */
describe.each(engines)('console webhooks ($name)', (engine) => {
  let t: TestApp;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  let hook: Awaited<ReturnType<typeof receiver>>;
  let secret: string;
  let endpointId: string;
  let otherEndpointId: string;
  let finishedTrx: string;
  const sessions: Record<string, { cookie: string; csrf: string }> = {};

  async function user(grantor: string, email: string, role: string) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runGrantorCommand(t, ['console-user-create', '--grantor', grantor, '--email', email, '--role', role], { out: (l) => out.push(l), err: (l) => err.push(l) }, undefined, cipher);
    expect(code, err.join('\n')).toBe(0);
    const text = out.join('\n');
    const password = /password: (\S+)/.exec(text)![1]!;
    const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
    const cookieOf = (res: { cookies: { name: string; value: string }[] }) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;
    const first = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password } });
    expect(first.statusCode, first.body).toBe(200);
    if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken as string };
    const code2 = totpAt(new URL(uri!).searchParams.get('secret')!, timeStep(new Date()));
    const second = await t.app.inject({ method: 'POST', url: '/console/api/session/totp', payload: { code: code2 }, headers: { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken } });
    expect(second.statusCode, second.body).toBe(200);
    return { cookie: cookieOf(second), csrf: second.json().csrfToken as string };
  }

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: sessions[who]!.cookie } });
  const replay = (who: string, id: string, csrf = true) =>
    t.app.inject({ method: 'POST', url: `/console/api/webhook-deliveries/${id}/replay`, headers: { cookie: sessions[who]!.cookie, ...(csrf ? { 'x-csrf-token': sessions[who]!.csrf } : {}) } });

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    sessions.admin = await user(demoId, 'admin@hooks.example', 'admin');
    sessions.reviewer = await user(demoId, 'reviewer@hooks.example', 'reviewer');
    sessions.viewer = await user(demoId, 'viewer@hooks.example', 'viewer');
    sessions.otherAdmin = await user(otherId, 'admin@other.example', 'admin');
    hook = await receiver(1);
    secret = generateWebhookSecret();
    endpointId = await insertEndpoint(t.db, cipher(), { grantorId: demoId, url: hook.url, secret });
    otherEndpointId = await insertEndpoint(t.db, cipher(), { grantorId: otherId, url: 'https://other.example/hooks', secret: generateWebhookSecret() });
    const headers = trxHeaders();
    finishedTrx = headers.transaccion;
    const finished = lifecycleEvent(headers, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: finished })).statusCode).toBe(200);
    await waitFor(async () => (hook.received.length >= 2 ? true : undefined), 30_000);
  });
  afterAll(async () => {
    hook?.server.close();
    await t?.close();
  });

  it('viewers and reviewers are refused the webhook screen (403), and the refusal is audited', async () => {
    for (const who of ['viewer', 'reviewer']) {
      expect((await get(who, '/console/api/webhooks')).statusCode).toBe(403);
      expect((await get(who, `/console/api/webhooks/${endpointId}/deliveries`)).statusCode).toBe(403);
    }
    const refused = await t.db.selectFrom('console_audit').select('action').where('action', '=', 'webhook_refused').execute();
    expect(refused.length).toBeGreaterThanOrEqual(4);
  });

  it("an admin sees the grantor's endpoints without their secrets, and not another grantor's", async () => {
    const res = await get('admin', '/console/api/webhooks');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().endpoints).toEqual([
      { id: endpointId, url: hook.url, events: ['verification.completed', 'verification.abandoned', 'review.decided'], active: true, createdAt: expect.any(String) },
    ]);
    expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain(otherEndpointId);
  });

  it('the delivery log shows one delivery with its attempts, last status, response time and folio', async () => {
    const res = await waitFor(async () => {
      const r = await get('admin', `/console/api/webhooks/${endpointId}/deliveries`);
      return r.json().deliveries?.[0]?.status === 'delivered' ? r : undefined;
    });
    const [delivery] = res.json().deliveries;
    const event = JSON.parse(hook.received[0]!.body) as { id: string; data: { folio: string } };
    expect(delivery).toMatchObject({ eventId: event.id, eventType: 'verification.completed', folio: event.data.folio, attempts: 2, lastStatusCode: 200, nextRetryAt: null, replayOf: null });
    expect(delivery.lastDurationMs).toEqual(expect.any(Number));
    expect(res.json().nextCursor).toBeNull();
    // Another grantor's admin: the endpoint answers like a missing one.
    expect((await get('otherAdmin', `/console/api/webhooks/${endpointId}/deliveries`)).statusCode).toBe(404);
  });

  it('a replay needs the CSRF token, is refused for another grantor (404), and re-sends the same event signed anew', async () => {
    const [original] = (await get('admin', `/console/api/webhooks/${endpointId}/deliveries`)).json().deliveries;
    expect((await replay('admin', original.id, false)).statusCode).toBe(403);
    expect((await replay('otherAdmin', original.id)).statusCode).toBe(404);
    expect((await replay('reviewer', original.id)).statusCode).toBe(403);
    expect((await replay('admin', '00000000-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect(hook.received).toHaveLength(2);

    const res = await replay('admin', original.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ eventId: original.eventId, replayOf: original.id, status: 'pending' });
    await waitFor(async () => (hook.received.length >= 3 ? true : undefined), 30_000);
    const [first, , again] = hook.received;
    expect(again!.body).toBe(first!.body);
    expect(JSON.parse(again!.body).id).toBe(original.eventId);
    expect(verifySignature(secret, again!.body, again!.signature, Math.floor(Date.now() / 1000))).toBe(true);

    const audit = await t.db.selectFrom('console_audit').select(['detail']).where('action', '=', 'webhook_replayed').execute();
    expect(audit.map((a) => JSON.parse(a.detail))).toEqual([expect.objectContaining({ deliveryId: original.id, eventId: original.eventId })]);

    // Newest first, one per page: the replay, then the original.
    const page1 = await waitFor(async () => {
      const r = (await get('admin', `/console/api/webhooks/${endpointId}/deliveries?limit=1`)).json();
      return r.deliveries[0]?.status === 'delivered' ? r : undefined;
    });
    expect(page1.deliveries.map((d: { id: string }) => d.id)).toEqual([res.json().id]);
    expect(page1.deliveries[0]).toMatchObject({ attempts: 1, lastStatusCode: 200, replayOf: original.id });
    const page2 = (await get('admin', `/console/api/webhooks/${endpointId}/deliveries?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2.deliveries.map((d: { id: string }) => d.id)).toEqual([original.id]);
    expect(page2.nextCursor).toBeNull();
  });

  it('a delivery the receiver keeps refusing is pending with its last status and next retry; a removed endpoint is not replayed (409)', async () => {
    const failing = await receiver(1_000);
    try {
      await deactivateEndpoint(t.db, otherEndpointId);
      const failingId = await insertEndpoint(t.db, cipher(), { grantorId: otherId, url: failing.url, secret: generateWebhookSecret() });
      const eventId = await enqueueWebhookEvent(t.db, cipher(), { grantorId: otherId, uuidTrx: crypto.randomUUID(), type: 'verification.abandoned', data: { folio: 'abcd1234' } });
      const delivery = await waitFor(async () => {
        const d = (await get('otherAdmin', `/console/api/webhooks/${failingId}/deliveries`)).json().deliveries?.[0];
        return d && d.attempts >= 1 && d.nextRetryAt ? d : undefined;
      });
      expect(delivery).toMatchObject({ eventId, folio: 'abcd1234', status: 'pending', lastStatusCode: 500, lastError: 'the receiver answered 500' });
      expect(Date.parse(delivery.nextRetryAt)).toBeGreaterThan(Date.parse(delivery.createdAt));
      // The demo grantor's admin does not see it, nor replays it.
      expect((await replay('admin', delivery.id)).statusCode).toBe(404);
      await deactivateEndpoint(t.db, failingId);
      expect((await replay('otherAdmin', delivery.id)).statusCode).toBe(409);
      const endpoints = (await get('otherAdmin', '/console/api/webhooks')).json().endpoints;
      expect(endpoints.map((e: { active: boolean }) => e.active)).toEqual([false, false]);
    } finally {
      failing.server.close();
    }
  });

  it("a blocked person's name is not in the case list (Datos bloqueados), nor found by search; the case file answers 451", async () => {
    const demo = await startedTransaction(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: demo, payload: lifecycleEvent(demo) })).statusCode).toBe(200);
    const before = (await get('viewer', '/console/api/cases?q=Zúñiga')).json();
    expect(before.cases.find((c: { uuidTrx: string }) => c.uuidTrx === demo.transaccion)).toMatchObject({ holderName: 'María Fernanda Núñez Zúñiga', blocked: false });
    expect((await get('viewer', `/console/api/cases/${demo.transaccion}/file`)).statusCode).toBe(200);

    // What a block request does (features/retention requests.ts): the transaction is marked restricted.
    await t.db.updateTable('transactions').set({ restricted_at: new Date().toISOString() }).where('uuid_trx', '=', demo.transaccion).execute();
    const list = await get('viewer', '/console/api/cases?limit=100');
    const row = list.json().cases.find((c: { uuidTrx: string }) => c.uuidTrx === demo.transaccion);
    expect(row).toMatchObject({ holderName: null, blocked: true });
    expect(list.json().cases.find((c: { uuidTrx: string }) => c.uuidTrx === finishedTrx)).toMatchObject({ blocked: false });
    const searched = (await get('viewer', '/console/api/cases?q=Zúñiga')).json();
    expect(searched.cases.map((c: { uuidTrx: string }) => c.uuidTrx)).not.toContain(demo.transaccion);
    expect((await get('viewer', `/console/api/cases/${demo.transaccion}/file`)).statusCode).toBe(451);
    expect((await get('viewer', `/console/api/cases/${demo.transaccion}/images/front`)).statusCode).toBe(451);
  });
});
