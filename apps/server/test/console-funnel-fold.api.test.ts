import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { funnelFoldIntervalMs, funnelFoldJobKind } from '../src/features/console/funnel-fold-job.js';
import { insertLifecycleEvent } from '../src/features/events/store.js';
import { insertTransactionIfAbsent } from '../src/store/transactions.js';
import { waitFor } from './results/support.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId } from './support/fixtures.js';

// The worker folds the funnel's daily aggregate on its own (issue #16): a staff member's funnel request never waits
// for a grantor's backfill or a day of writes.
describe.each(engines)('funnel fold job ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50 } });
  });
  afterAll(async () => t?.close());

  const foldJobs = () => t.db.selectFrom('jobs').select(['id', 'state', 'run_at']).where('kind', '=', funnelFoldJobKind).execute();

  it('runs when the worker starts and keeps one next run queued a minute later', async () => {
    const done = await waitFor(async () => (await foldJobs()).find((j) => j.state === 'done'));
    const pending = (await foldJobs()).filter((j) => j.state === 'pending');
    expect(pending).toHaveLength(1);
    expect(Date.parse(pending[0]!.run_at) - Date.parse(done.run_at)).toBeGreaterThanOrEqual(funnelFoldIntervalMs - 1_000);
    // Every grantor was backfilled by that first run.
    expect(await t.db.selectFrom('console_funnel_grantors').select('grantor_id').where('grantor_id', '=', demoId).executeTakeFirst()).toBeDefined();
  });

  it('folds the transactions written since into the days, with no funnel request', async () => {
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const day = new Date('2026-11-02T10:00:00.000Z');
    for (let i = 0; i < 3; i += 1) {
      const uuidTrx = randomUUID();
      await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId: demoId }, day);
      const steps = i === 0 ? ['inicio', 'terminos'] : ['inicio'];
      for (const [k, step] of steps.entries()) {
        const payload = { step, event: JSON.stringify({ status: 'OK', step, description: 'prueba' }) };
        await insertLifecycleEvent(t.db, cipher, { uuidTrx, grantorId: demoId, step, payload }, new Date(day.getTime() + 1000 * (k + 1)));
      }
    }
    expect(await t.db.selectFrom('console_funnel_dirty').select('uuid_trx').where('grantor_id', '=', demoId).execute()).toHaveLength(3);
    // The queued run made due now, as a minute passing would.
    await t.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('kind', '=', funnelFoldJobKind).where('state', '=', 'pending').execute();
    await waitFor(async () => ((await t.db.selectFrom('console_funnel_dirty').select('uuid_trx').where('grantor_id', '=', demoId).execute()).length === 0 ? true : undefined));
    const days = await t.db.selectFrom('console_funnel_days').select(['ord', 'reached', 'stopped']).where('grantor_id', '=', demoId).where('day', '=', '2026-11-02').orderBy('ord').execute();
    // Opened (3), inicio (3, two stopped there), terminos (1, stopped there).
    expect(days.map((d) => [Number(d.reached), Number(d.stopped)])).toEqual([
      [3, 0],
      [3, 2],
      [1, 1],
    ]);
    // Still exactly one run waiting.
    expect((await foldJobs()).filter((j) => j.state === 'pending')).toHaveLength(1);
  });
});
