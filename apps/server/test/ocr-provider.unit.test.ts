import { describe, expect, it } from 'vitest';
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
