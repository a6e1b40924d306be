import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';
import { acceptConsents, journeyConsents, usableFront } from './support/journey.js';
import { snapshotDiff, stateSnapshot } from './support/state-snapshot.js';
import { imageSample, multipartBody } from './uploads/samples.js';

/**
 * A NUL character (U+0000) in a text field: PostgreSQL text cannot hold it, so these calls answered 500 there
 * (and SQLite stored it). Found by the fuzz suite; refused alike with 400 on every engine, changing nothing.
 */
describe.each(engines)('NUL characters in requests ($name)', (engine) => {
  let t: TestApp;
  let journey: Awaited<ReturnType<typeof startedTransaction>>;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off', PROCESS_ROLE: 'api' }); // no job worker: its own writes would show in the snapshots
    journey = await startedTransaction(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: journey, payload: lifecycleEvent(journey) })).statusCode).toBe(200);
    await acceptConsents(t.app, journey, journeyConsents);
    await usableFront(t, journey);
  }, 60_000);
  afterAll(async () => t?.close());

  async function refusedUnchanged(request: InjectOptions, field: RegExp) {
    const before = await stateSnapshot(t.db, t.dataDir);
    const res = await t.app.inject(request);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/NUL character/);
    expect(res.json().message).toMatch(field);
    expect(snapshotDiff(before, await stateSnapshot(t.db, t.dataDir))).toEqual([]);
  }

  it('refuses a NUL in a JSON body field (audit event paso, lifecycle step, a nested one) with 400', async () => {
    await refusedUnchanged({ method: 'POST', url: '/v1/celd_events', headers: journey, payload: auditEvent(journey, { paso: 'identificacion\u0000' }) }, /body field paso/);
    await refusedUnchanged({ method: 'POST', url: '/v1/celd_events', headers: journey, payload: auditEvent(journey, { tipo: '\u0000' }) }, /body field tipo/);
    await refusedUnchanged({ method: 'POST', url: '/v1/update_cycle', headers: journey, payload: lifecycleEvent(journey, { step: 'ter\u0000minos' }) }, /body field step/);
    await refusedUnchanged({ method: 'POST', url: '/v1/update_cycle', headers: journey, payload: lifecycleEvent(journey, { nombreCompleto: 'María\u0000' }) }, /body field nombreCompleto/);
    await refusedUnchanged(
      { method: 'POST', url: '/v1/postalcodes', headers: journey, payload: { uuid: journey.cliente, address: { cp: '06700', street: 'Calle\u0000 1' } } },
      /body field address\.street/,
    );
  });

  it('refuses a NUL in a path or query parameter with 400', async () => {
    await refusedUnchanged({ method: 'GET', url: '/v1/public/params/%00' }, /path parameter idOtorgante/);
    await refusedUnchanged({ method: 'GET', url: `/v1/public/params/${demoId}?idOtorgante=a%00` }, /query parameter idOtorgante/);
  });

  it('refuses a NUL in a multipart text field with 400', async () => {
    const { payload, contentType } = multipartBody([
      { name: 'uuid', value: journey.cliente },
      { name: 'folder', value: `${demoId}/${journey.cliente}/domicilio\u0000` },
      { name: 'file', filename: 'a.png', contentType: 'image/png', data: await imageSample('png', 320, 240) },
    ]);
    await refusedUnchanged({ method: 'POST', url: '/v1/file', headers: { ...journey, 'content-type': contentType }, payload }, /multipart field folder/);
  });

  it('still answers a body nested 100,000 levels deep with a 400 from its schema, not a stack overflow', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const body = JSON.stringify(auditEvent(journey, { paso: '@@' })).replace('"@@"', deep);
    const res = await t.app.inject({ method: 'POST', url: '/v1/celd_events', headers: { ...journey, 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/body field paso/);
  });
});
