import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyOcrEngine } from '../src/engines/ocr/provider.js';
import type { OcrEngine } from '../src/engines/ocr/types.js';

// The provider's own logic (lazy start, in-flight cap, close) with an engine whose reads we release by hand.
function controllableEngine() {
  const releases: Array<() => void> = [];
  let closed = false;
  const engine: OcrEngine = {
    read: () =>
      new Promise((resolve) =>
        releases.push(() => resolve({ documentType: 'INE', side: 'front', ocrData: {}, geometry: { cardFound: true, rotationDeg: 0, cropped: true }, warnings: [], timingsMs: {} })),
      ),
    readProof: () => new Promise((resolve) => releases.push(() => resolve({ fields: {}, lineCount: 0, timingsMs: {} }))),
    close: async () => {
      closed = true;
    },
  };
  return { engine, releases, isClosed: () => closed };
}

describe('lazy OCR engine provider', () => {
  it('starts the engine once, on first use, and closes it', async () => {
    const { engine, isClosed } = controllableEngine();
    let starts = 0;
    const provider = lazyOcrEngine(async () => {
      starts += 1;
      return engine;
    });
    expect(starts).toBe(0);
    await Promise.all([provider.get(), provider.get()]);
    expect(starts).toBe(1);
    await provider.close();
    expect(isClosed()).toBe(true);
  });

  it('refuses a read beyond the in-flight cap when nothing may wait, and accepts again once one ends', async () => {
    const { engine, releases } = controllableEngine();
    const provider = lazyOcrEngine(async () => engine, 2, { length: 0, waitMs: 1000 });
    const image = Buffer.alloc(0);
    const first = provider.withSlot((e) => e.read({ image, side: 'front' }));
    const second = provider.withSlot((e) => e.read({ image, side: 'front' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await provider.withSlot((e) => e.read({ image, side: 'front' }))).toBeUndefined();
    releases.shift()?.();
    expect(await first).toMatchObject({ documentType: 'INE' });
    const third = provider.withSlot((e) => e.read({ image, side: 'front' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    releases.forEach((release) => release());
    expect(await second).toBeDefined();
    expect(await third).toBeDefined();
  });

  it('queues reads past the cap in order, refuses past the queue bound, and gives up on a wait past its deadline', async () => {
    const { engine, releases } = controllableEngine();
    const provider = lazyOcrEngine(async () => engine, 1, { length: 2, waitMs: 200 });
    const image = Buffer.alloc(0);
    const order: string[] = [];
    const read = (name: string) =>
      provider.withSlot(async (e) => {
        order.push(name);
        return e.read({ image, side: 'front' });
      });
    const first = read('first');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const second = read('second');
    const third = read('third');
    expect(provider.queued()).toBe(2);
    expect(await read('fourth')).toBeUndefined();
    releases.shift()?.();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(['first', 'second']);
    expect(provider.queued()).toBe(1);
    // Nobody releases the second read: the third's wait runs out.
    expect(await third).toBeUndefined();
    expect(provider.queued()).toBe(0);
    releases.forEach((release) => release());
    expect(await second).toBeDefined();
    expect(order).toEqual(['first', 'second']);
  });
});

describe('lazy engine provider: closed when idle (ENGINE_IDLE_CLOSE_SECONDS)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes the engine once unused for the idle time, never while a run holds it, and starts a new one on the next use', async () => {
    vi.useFakeTimers();
    const made: ReturnType<typeof controllableEngine>[] = [];
    const provider = lazyOcrEngine(
      async () => {
        made.push(controllableEngine());
        return made.at(-1)!.engine;
      },
      2,
      undefined,
      45_000,
    );
    const image = Buffer.alloc(0);
    const first = provider.withSlot((e) => e.read({ image, side: 'front' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(provider.status()).toBe('ready');
    // A read that lasts longer than the idle time keeps the engine.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(made[0]!.isClosed()).toBe(false);
    made[0]!.releases.shift()!();
    await first;
    await vi.advanceTimersByTimeAsync(44_000);
    expect(made[0]!.isClosed()).toBe(false);
    // A use just before the end starts the idle time again.
    const second = provider.withSlot((e) => e.read({ image, side: 'back' }));
    await vi.advanceTimersByTimeAsync(0);
    made[0]!.releases.shift()!();
    await second;
    await vi.advanceTimersByTimeAsync(44_000);
    expect(made[0]!.isClosed()).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(made[0]!.isClosed()).toBe(true);
    expect(provider.status()).toBe('idle');

    const third = provider.withSlot((e) => e.read({ image, side: 'front' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(made).toHaveLength(2);
    made[1]!.releases.shift()!();
    await expect(third).resolves.toMatchObject({ documentType: 'INE' });
    await provider.close();
    expect(made[1]!.isClosed()).toBe(true);
  });

  it('keeps the engine until the process closes when the idle time is 0', async () => {
    vi.useFakeTimers();
    const { engine, isClosed } = controllableEngine();
    const provider = lazyOcrEngine(async () => engine, 2, undefined, 0);
    await provider.get();
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(isClosed()).toBe(false);
    expect(provider.status()).toBe('ready');
  });
});
