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

  it('refuses a read beyond the in-flight cap and accepts again once one ends', async () => {
    const { engine, releases } = controllableEngine();
    const provider = lazyOcrEngine(async () => engine, 2);
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
});
