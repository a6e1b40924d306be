import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { fillLifecycleStatuses } from '../src/features/console/funnel.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { insertLifecycleEvent } from '../src/features/events/store.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertGrantor } from '../src/store/grantors.js';
import { insertTransactionIfAbsent, setCancelled } from '../src/store/transactions.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';

const otherId = '00000000-0000-4000-8000-0000000000f7';
const at = (iso: string, plusSeconds = 0) => new Date(Date.parse(iso) + plusSeconds * 1000);

/**
 * The console's funnel (issue #16) on a known set of lifecycle events: five transactions of October 2026 with events at
 * chosen times (one finished, one stopped by a failed ID capture, one cancelled, one that never started, one still in
 * progress), one of September and one of another grantor that must not count. Every figure is computed by hand below.
 */
describe.each(engines)('console funnel ($name)', (engine) => {
  let t: TestApp;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const users: Record<string, string> = {};

  async function createUser(...argv: string[]) {
    const out: string[] = [];
    const code = await runGrantorCommand(t, ['console-user-create', ...argv], { out: (l) => out.push(l), err: () => undefined }, undefined, cipher);
    expect(code).toBe(0);
    const text = out.join('\n');
    const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
    return { password: /password: (\S+)/.exec(text)![1]!, secret: uri ? new URL(uri).searchParams.get('secret')! : undefined };
  }

  async function signIn(email: string, created: { password: string; secret: string | undefined }): Promise<string> {
    const first = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password: created.password } });
    const cookieOf = (res: typeof first) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;
    if (first.json().stage === 'active') return cookieOf(first);
    const second = await t.app.inject({
      method: 'POST',
      url: '/console/api/session/totp',
      payload: { code: totpAt(created.secret!, timeStep(new Date())) },
      headers: { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken },
    });
    expect(second.statusCode, second.body).toBe(200);
    return cookieOf(second);
  }

  /** A transaction created at `created`, with lifecycle events [step, status, seconds after creation]. */
  async function transaction(grantorId: string, created: string, events: [string, string, number][], video?: number): Promise<string> {
    const uuidTrx = randomUUID();
    await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId }, at(created));
    for (const [step, status, seconds] of events) {
      const payload = { step, event: JSON.stringify({ status, step, description: 'prueba' }), nombreCompleto: 'María Núñez' };
      await insertLifecycleEvent(t.db, cipher(), { uuidTrx, grantorId, step, payload }, at(created, seconds));
    }
    if (video !== undefined) {
      await addEvidence(t.db, cipher(), { uuidTrx, grantorId, kind: evidenceKind.videoToken, payload: { match: true } }, at(created, video));
    }
    return uuidTrx;
  }

  const funnel = (cookie: string, query = 'from=2026-10-01&to=2026-10-31') => t.app.inject({ method: 'GET', url: `/console/api/funnel?${query}`, headers: { cookie } });

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off', CONSOLE_ABANDON_MINUTES: '60' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: 'otra-financiera-key-0123456789' });
    // T1 finished: every step, then the face video and the end.
    await transaction(
      demoId,
      '2026-10-05T10:00:00.000Z',
      [
        ['inicio', 'OK', 10],
        ['terminos', 'OK', 40],
        ['identificacion', 'OK', 100],
        ['clausula', 'OK', 160],
        ['autorizacion', 'OK', 200],
        ['finished', 'OK', 320],
      ],
      300,
    );
    // T2: the ID capture failed at its retry limit: furthest step 'terminos', quiet since.
    const t2 = await transaction(demoId, '2026-10-06T10:00:00.000Z', [
      ['inicio', 'OK', 20],
      ['terminos', 'OK', 60],
      ['identificacion', 'FAIL', 120],
    ]);
    // Stored before migration 0027 kept the status: filled from the payload by the first funnel.
    await t.db.updateTable('lifecycle_events').set({ status: null }).where('uuid_trx', '=', t2).execute();
    // T3: cancelled on the terms screen (its INCOMPLETED event does not complete 'terminos').
    const t3 = await transaction(demoId, '2026-10-07T10:00:00.000Z', [
      ['inicio', 'OK', 30],
      ['terminos', 'INCOMPLETED', 50],
    ]);
    await setCancelled(t.db, t3, at('2026-10-07T10:00:00.000Z', 50));
    // T4: the link was opened, nothing else.
    await transaction(demoId, '2026-10-08T10:00:00.000Z', []);
    // T5: still going (active a moment ago), at the ID capture.
    const t5 = await transaction(demoId, '2026-10-08T12:00:00.000Z', [
      ['inicio', 'OK', 5],
      ['terminos', 'OK', 25],
      ['identificacion', 'OK', 85],
    ]);
    await t.db.updateTable('transactions').set({ updated_at: new Date().toISOString() }).where('uuid_trx', '=', t5).execute();
    // Outside the range, and another grantor's: not counted.
    await transaction(demoId, '2026-09-30T23:59:59.000Z', [['inicio', 'OK', 5]]);
    await transaction(otherId, '2026-10-10T10:00:00.000Z', [['inicio', 'OK', 5]]);

    users.viewer = await signIn('viewer@demo.example', await createUser('--grantor', demoId, '--email', 'viewer@demo.example', '--role', 'viewer'));
    users.other = await signIn('admin@otra.example', await createUser('--grantor', otherId, '--email', 'admin@otra.example', '--role', 'reviewer'));
    users.operator = await signIn('ops@platform.example', await createUser('--email', 'ops@platform.example', '--role', 'operator'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts each step reached, the conversion from the step before, where each transaction stopped and the median time per step', async () => {
    const res = await funnel(users.viewer!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ transactions: 5, finished: 1, abandoned: 3, inProgress: 1, pendingEvents: 0, from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' });
    const steps = Object.fromEntries(
      (body.steps as { step: string; reached: number; conversion: number | null; stoppedHere: number; inProgressHere: number; medianMs: number | null }[]).map((s) => [s.step, s]),
    );
    // Nobody reached the proof of address or the credit-history consent: those optional steps are not shown.
    expect(Object.keys(steps)).toEqual(['opened', 'inicio', 'terminos', 'identificacion', 'clausula', 'autorizacion', 'video', 'finished']);
    expect(steps.opened).toEqual(expect.objectContaining({ reached: 5, conversion: 1, stoppedHere: 1, inProgressHere: 0, medianMs: null, label: 'Abrió el enlace' }));
    // inicio: 10, 20, 30, 5 s after opening → median 15 s; T3 (cancelled) stopped here.
    expect(steps.inicio).toEqual(expect.objectContaining({ reached: 4, conversion: 0.8, stoppedHere: 1, inProgressHere: 0, medianMs: 15_000 }));
    // terminos: 30, 40, 20 s after inicio → 30 s; T2 (its ID capture failed) stopped here.
    expect(steps.terminos).toEqual(expect.objectContaining({ reached: 3, conversion: 0.75, stoppedHere: 1, medianMs: 30_000 }));
    // identificacion: 60 and 60 s; T5 is still there.
    expect(steps.identificacion).toEqual(expect.objectContaining({ reached: 2, stoppedHere: 0, inProgressHere: 1, medianMs: 60_000 }));
    expect(steps.identificacion!.conversion).toBeCloseTo(2 / 3, 6);
    expect(steps.clausula).toEqual(expect.objectContaining({ reached: 1, conversion: 0.5, medianMs: 60_000 }));
    expect(steps.autorizacion).toEqual(expect.objectContaining({ reached: 1, conversion: 1, medianMs: 40_000 }));
    expect(steps.video).toEqual(expect.objectContaining({ reached: 1, conversion: 1, medianMs: 100_000, label: 'Video de verificación' }));
    expect(steps.finished).toEqual(expect.objectContaining({ reached: 1, conversion: 1, stoppedHere: 0, inProgressHere: 0, medianMs: 20_000 }));

    // The events stored without a status were read once and got it.
    const statuses = await t.db.selectFrom('lifecycle_events').select(['step', 'status']).where('grantor_id', '=', demoId).where('step', '=', 'identificacion').orderBy('id').execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['FAIL', 'OK', 'OK']);
    expect(await fillLifecycleStatuses(t.db, cipher(), demoId)).toBe(0);

    const audits = await t.db.selectFrom('console_audit').select(['action', 'detail', 'grantor_id']).where('action', '=', 'funnel_viewed').execute();
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.detail)).toEqual({ from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z', transactions: 5 });
    expect(audits[0]!.grantor_id).toBe(demoId);
  });

  it('a narrower range counts only the transactions created in it', async () => {
    const body = (await funnel(users.viewer!, 'from=2026-10-08&to=2026-10-08')).json();
    expect(body).toMatchObject({ transactions: 2, finished: 0, abandoned: 1, inProgress: 1 });
    expect(body.steps.map((s: { step: string; reached: number }) => [s.step, s.reached])).toEqual([
      ['opened', 2],
      ['inicio', 1],
      ['terminos', 1],
      ['identificacion', 1],
      ['video', 0],
      ['finished', 0],
    ]);
    expect(body.steps.find((s: { step: string }) => s.step === 'video').conversion).toBe(0);
    expect(body.steps.find((s: { step: string }) => s.step === 'finished').conversion).toBeNull();
  });

  it("another grantor's staff see their own transactions only; an operator names the grantor", async () => {
    expect((await funnel(users.other!)).json()).toMatchObject({ transactions: 1 });
    expect((await funnel(users.other!, `from=2026-10-01&to=2026-10-31&grantorId=${demoId}`)).statusCode).toBe(403);
    expect((await funnel(users.operator!)).statusCode).toBe(400);
    expect((await funnel(users.operator!, `from=2026-10-01&to=2026-10-31&grantorId=${demoId}`)).json()).toMatchObject({ transactions: 5 });
  });

  it('refuses without a session, a reversed range and a range over a year', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/console/api/funnel' })).statusCode).toBe(401);
    expect((await funnel(users.viewer!, 'from=2026-10-31&to=2026-10-01')).statusCode).toBe(400);
    const long = await funnel(users.viewer!, 'from=2025-01-01&to=2026-10-01');
    expect(long.statusCode).toBe(400);
    expect(long.json().message_client).toBe('Elige un periodo de 366 días o menos.');
  });

  it('the list scores a case finished after its last full look (it then reads only recent finishes)', async () => {
    const list = async (status?: string) => (await t.app.inject({ method: 'GET', url: `/console/api/cases?limit=100${status ? `&status=${status}` : ''}`, headers: { cookie: users.viewer! } })).json();
    await list();
    const demo = await startedTransaction(t.app);
    const end = lifecycleEvent(demo, { step: 'finished', event: JSON.stringify({ status: 'FAIL', step: 'finished', description: 'Proceso concluido' }) });
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: demo, payload: end })).statusCode).toBe(200);
    // No evidence at all: scored RED on the next look, and listed under that filter.
    await list();
    expect((await list('RED')).cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toContain(demo.transaccion.toLowerCase());
  });

  it('the flow’s lifecycle events are stored with their status in clear, and only known statuses', async () => {
    const demo = await startedTransaction(t.app);
    for (const status of ['OK', 'fail', 'something else']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/update_cycle',
        headers: demo,
        payload: lifecycleEvent(demo, { step: 'inicio', event: JSON.stringify({ status, step: 'inicio', description: 'Inicio' }) }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await t.db.selectFrom('lifecycle_events').select('status').where('uuid_trx', '=', demo.transaccion.toLowerCase()).orderBy('id').execute();
    expect(rows.map((r) => r.status)).toEqual(['OK', 'FAIL', 'OTHER']);
  });
});
