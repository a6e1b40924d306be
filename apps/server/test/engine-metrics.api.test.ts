import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEngine } from '../src/engines/lazy-provider.js';
import { createMetrics } from '../src/metrics/registry.js';
import { createTestDatabase, type TestDatabase } from './support/app.js';

// The engines' series come from a wrapper around the lazy provider that every OCR read and face decision goes
// through (app.ts). Here it wraps the real lazyEngine with a tiny engine whose runs the test holds open.
describe('engine metrics', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ name: 'sqlite' });
  });
  afterAll(async () => database?.close());

  it('shows busy slots and queued runs while runs are in progress, times each run by outcome, and counts runs refused when full', async () => {
    const metrics = createMetrics(database.db);
    const engine = { close: async () => undefined, run: (ms: number) => new Promise((r) => setTimeout(r, ms)) };
    const face = metrics.instrumentEngine(
      'face',
      lazyEngine(async () => engine, 2, { queue: { length: 1, waitMs: 5_000 } }),
      2,
    );
    const value = async (name: string, labels: Record<string, string>) => {
      const metric = await metrics.registry.getSingleMetric(name)!.get();
      const found = metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
      return found?.value ?? 0;
    };

    const first = face.withSlot((e) => e.run(150));
    const second = face.withSlot(async (e) => {
      await e.run(150);
      throw new Error('decision failed');
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(await value('kyc_engine_busy_slots', { engine: 'face' })).toBe(2);
    const third = face.withSlot((e) => e.run(1));
    expect(await value('kyc_engine_queued', { engine: 'face' })).toBe(1);
    expect(await face.withSlot((e) => e.run(1))).toBeUndefined();
    expect(await value('kyc_engine_refused_total', { engine: 'face' })).toBe(1);

    await first;
    await expect(second).rejects.toThrow('decision failed');
    await third;
    expect(await value('kyc_engine_queued', { engine: 'face' })).toBe(0);
    expect(await value('kyc_engine_busy_slots', { engine: 'face' })).toBe(0);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/kyc_engine_decision_duration_seconds_count\{engine="face",outcome="ok"\} 2\n/);
    expect(text).toMatch(/kyc_engine_decision_duration_seconds_count\{engine="face",outcome="error"\} 1\n/);
    const sum = Number(/kyc_engine_decision_duration_seconds_sum\{engine="face",outcome="ok"\} ([\d.]+)/.exec(text)?.[1]);
    expect(sum).toBeGreaterThan(0.1);
  });
});
