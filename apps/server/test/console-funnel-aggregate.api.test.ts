import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../src/blob/index.js';
import { createDataCipher, loadDataKey, type DataCipher } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { bucketOf, refreshFunnelAggregate } from '../src/features/console/funnel-aggregate.js';
import { computeFunnel, type FunnelQuery } from '../src/features/console/funnel.js';
import { readFunnel, splitRange } from '../src/features/console/funnel-read.js';
import { insertLifecycleEvent, lifecycleContext } from '../src/features/events/store.js';
import { eraseTransaction } from '../src/features/retention/erase.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertGrantor } from '../src/store/grantors.js';
import { uuidv7 } from '../src/store/ids.js';
import { insertTransactionIfAbsent } from '../src/store/transactions.js';
import { createTestDatabase, engines, type TestDatabase } from './support/app.js';

const demoId = '00000000-0000-4000-8000-0000000000f9';
const otherId = '00000000-0000-4000-8000-0000000000f8';
const steps = ['inicio', 'terminos', 'identificacion', 'comprobante', 'clausula', 'autorizacion', 'consulta_historial'] as const;
const now = new Date('2026-11-20T12:00:00.000Z');
const dayMs = 86_400_000;

/** mulberry32: the same data on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` transactions over the 40 days before `now`, written straight to the tables (as an import or the bench
 * would, so the first refresh backfills them): steps reached in order with FAIL and repeated events, some out of the
 * journey's order, some cancelled, some active a moment ago, the face video and the end for part of them.
 */
async function generate(db: TestDatabase['db'], cipher: DataCipher, grantorId: string, count: number, seed: number): Promise<string[]> {
  const random = rng(seed);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const uuidTrx = randomUUID();
    ids.push(uuidTrx);
    const created = now.getTime() - Math.floor(random() * 40 * dayMs);
    let at = created;
    const events: Record<string, unknown>[] = [];
    const event = (step: string, status: string, when: number) => {
      const id = uuidv7(when);
      const payload = { step, event: JSON.stringify({ status, step, description: 'prueba' }) };
      events.push({
        id,
        uuid_trx: uuidTrx,
        grantor_id: grantorId,
        step,
        status,
        payload_enc: cipher.encrypt(JSON.stringify(payload), lifecycleContext(uuidTrx, id)),
        received_at: new Date(when).toISOString(),
      });
    };
    const reached = Math.floor(random() * (steps.length + 1));
    for (let s = 0; s < reached; s += 1) {
      at += Math.floor(random() * (random() < 0.1 ? 3 * 3_600_000 : 120_000));
      if (random() < 0.15) event(steps[s]!, 'FAIL', at);
      // Now and then a step reported before the one before it (hand-made calls): a negative time, counted as 0.
      event(steps[s]!, 'OK', random() < 0.05 ? at - 30_000 : at);
      if (random() < 0.1) event(steps[s]!, 'OK', at + 5_000);
    }
    let video = false;
    if (reached === steps.length && random() < 0.8) {
      at += 30_000 + Math.floor(random() * 90_000);
      video = true;
      await db
        .insertInto('transactions')
        .values({
          uuid_trx: uuidTrx,
          uuid_user: randomUUID(),
          grantor_id: grantorId,
          current_step: null,
          lock_until: null,
          cancelled_at: null,
          created_at: new Date(created).toISOString(),
          updated_at: new Date(at).toISOString(),
        } as never)
        .execute();
      await db
        .insertInto('evidence')
        .values({ id: uuidv7(at), uuid_trx: uuidTrx, grantor_id: grantorId, kind: evidenceKind.videoToken, blob_key: null, sha256: null, payload_enc: null, created_at: new Date(at).toISOString() })
        .execute();
      at += 10_000 + Math.floor(random() * 20_000);
      event('finished', random() < 0.2 ? 'FAIL' : 'OK', at);
    }
    const recent = random() < 0.1;
    const cancelled = !recent && random() < 0.1;
    const updated = recent ? new Date(now.getTime() - 60_000).toISOString() : new Date(at).toISOString();
    if (!video)
      await db
        .insertInto('transactions')
        .values({
          uuid_trx: uuidTrx,
          uuid_user: randomUUID(),
          grantor_id: grantorId,
          current_step: null,
          lock_until: null,
          cancelled_at: cancelled ? updated : null,
          created_at: new Date(created).toISOString(),
          updated_at: updated,
        } as never)
        .execute();
    else
      await db
        .updateTable('transactions')
        .set({ updated_at: updated, cancelled_at: cancelled ? updated : null })
        .where('uuid_trx', '=', uuidTrx)
        .execute();
    if (events.length)
      await db
        .insertInto('lifecycle_events')
        .values(events as never)
        .execute();
  }
  return ids;
}

/** The same answer but for a median that differs by at most 1 ms (SQLite's julianday arithmetic is floating point). */
function expectSame(fast: Awaited<ReturnType<typeof readFunnel>>, exact: Awaited<ReturnType<typeof computeFunnel>>) {
  const strip = (f: typeof fast) => ({ ...f, steps: f.steps.map((s) => ({ ...s, medianMs: null })) });
  expect(strip(fast)).toEqual(strip(exact));
  fast.steps.forEach((s, i) => {
    const e = exact.steps[i]!.medianMs;
    if (e === null) expect(s.medianMs).toBeNull();
    else expect(Math.abs(s.medianMs! - e), `${s.step}: ${s.medianMs} vs ${e}`).toBeLessThanOrEqual(1);
  });
}

const ranges: [string, string][] = [
  // Whole days, a month and the whole data.
  ['2026-10-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z'],
  ['2026-10-01T00:00:00.000Z', '2026-11-21T00:00:00.000Z'],
  // Starting and ending mid-day; inside one day; shorter than a day across midnight.
  ['2026-10-15T07:31:12.345Z', '2026-11-02T16:05:00.000Z'],
  ['2026-11-03T03:00:00.000Z', '2026-11-03T21:00:00.000Z'],
  ['2026-11-04T18:00:00.000Z', '2026-11-05T06:00:00.000Z'],
  ['2026-11-10T00:00:00.000Z', '2026-11-12T12:00:00.000Z'],
];

/**
 * The daily aggregate answers exactly what the funnel computed from the events answers (funnel.ts computeFunnel),
 * after a backfill and after writes through the service's own functions, on generated data and on ranges that start
 * and end mid-day.
 */
describe.each(engines)('console funnel daily aggregate ($name)', (engine) => {
  let t: TestDatabase;
  let cipher: DataCipher;
  let ids: string[] = [];
  const query = (from: string, to: string, grantorId = demoId): FunnelQuery => ({ grantorId, from, to, abandonAfterMs: 30 * 60_000 });

  async function compareAll(grantorId = demoId) {
    for (const [from, to] of ranges) {
      const exact = await computeFunnel(t.db, query(from, to, grantorId), now);
      const fast = await readFunnel(t.db, query(from, to, grantorId), now);
      expectSame(fast, exact);
    }
  }

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    cipher = createDataCipher(loadDataKey(t.config).key);
    await insertGrantor(t, { id: demoId, name: 'Financiera Uno', apiKey: 'financiera-uno-key-0123456789' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: 'otra-financiera-key-0123456789' });
    ids = await generate(t.db, cipher, demoId, 700, 7);
    await generate(t.db, cipher, otherId, 150, 8);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('splits a range into whole UTC days and partial edges', () => {
    expect(splitRange('2026-10-15T07:31:12.345Z', '2026-11-02T16:05:00.000Z')).toEqual({
      days: ['2026-10-16', '2026-11-02'],
      edges: [
        ['2026-10-15T07:31:12.345Z', '2026-10-16T00:00:00.000Z'],
        ['2026-11-02T00:00:00.000Z', '2026-11-02T16:05:00.000Z'],
      ],
    });
    expect(splitRange('2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z')).toEqual({ days: ['2026-11-01', '2026-11-03'], edges: [] });
    expect(splitRange('2026-11-03T03:00:00.000Z', '2026-11-03T21:00:00.000Z')).toEqual({ days: null, edges: [['2026-11-03T03:00:00.000Z', '2026-11-03T21:00:00.000Z']] });
    expect([0, 0.5, 1, 1.09, 1.1, 1000].map(bucketOf)).toEqual([0, 0, 1, 1, 2, 73]);
  });

  it('after the backfill, equals the funnel computed from the events on every range', async () => {
    expect(await refreshFunnelAggregate(t.db, demoId)).toBe(700);
    expect(await refreshFunnelAggregate(t.db, demoId)).toBe(0);
    const month = await readFunnel(t.db, query(...ranges[1]!), now);
    // The data has something to compare: every step reached by some, abandoned and in-progress transactions.
    expect(month.transactions).toBe(700);
    expect(month.abandoned).toBeGreaterThan(0);
    expect(month.inProgress).toBeGreaterThan(0);
    expect(month.steps.find((s) => s.step === 'video')!.reached).toBeGreaterThan(0);
    await compareAll();
    // Another grantor's data is its own aggregate.
    await refreshFunnelAggregate(t.db, otherId);
    await compareAll(otherId);
  });

  it('folds what the service writes afterwards: new transactions, events out of order, the video, an erasure', async () => {
    const random = rng(9);
    for (const uuidTrx of ids.slice(0, 60)) {
      const at = new Date(now.getTime() - Math.floor(random() * 30 * dayMs));
      const step = steps[Math.floor(random() * steps.length)]!;
      await insertLifecycleEvent(t.db, cipher, { uuidTrx, grantorId: demoId, step, payload: { step, event: JSON.stringify({ status: 'OK', step }) } }, at);
    }
    for (const uuidTrx of ids.slice(60, 70)) await addEvidence(t.db, cipher, { uuidTrx, grantorId: demoId, kind: evidenceKind.videoToken, payload: { match: true } }, now);
    for (let i = 0; i < 20; i += 1) {
      const uuidTrx = randomUUID();
      const created = new Date(now.getTime() - Math.floor(random() * 20 * dayMs));
      await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser: randomUUID(), grantorId: demoId }, created);
      await insertLifecycleEvent(
        t.db,
        cipher,
        { uuidTrx, grantorId: demoId, step: 'inicio', payload: { step: 'inicio', event: JSON.stringify({ status: 'OK', step: 'inicio' }) } },
        new Date(created.getTime() + 40_000),
      );
    }
    const blobs = createBlobStore(t.config, cipher);
    for (const uuidTrx of ids.slice(100, 105)) await eraseTransaction({ db: t.db, blobs }, { uuidTrx, grantorId: demoId }, 'request', now);
    // Not yet folded: the aggregate still answers the old figures.
    const stale = await readFunnel(t.db, query(...ranges[1]!), now);
    expect(stale.transactions).toBe(700);
    expect(await refreshFunnelAggregate(t.db, demoId)).toBe(60 + 10 + 20 + 5);
    await compareAll();
  });
});
