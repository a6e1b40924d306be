import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentRejectedError } from '../../src/uploads/content-error.js';
import { checkImage } from '../../src/uploads/image-check.js';
import { checkPdf } from '../../src/uploads/pdf-check.js';
import { imageSample, pdfSample } from './samples.js';

async function rejection(run: () => Promise<unknown> | unknown): Promise<ContentRejectedError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ContentRejectedError);
    return error as ContentRejectedError;
  }
  throw new Error('expected a ContentRejectedError');
}

const plain = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

describe('checkImage', () => {
  const samples: Record<string, Buffer> = {};
  beforeAll(async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) samples[format] = await imageSample(format);
  });

  it('accepts whole images and reports their size', async () => {
    for (const format of ['png', 'jpeg', 'webp']) {
      expect(await checkImage(samples[format] as Buffer)).toMatchObject({ width: 640, height: 480 });
    }
  });

  it('refuses truncated images of every format as corrupt', async () => {
    for (const format of ['png', 'jpeg', 'webp']) {
      const whole = samples[format] as Buffer;
      for (const fraction of [0.5, 0.95]) {
        const error = await rejection(() => checkImage(whole.subarray(0, Math.floor(whole.length * fraction))));
        expect(error.reason).toBe('corrupt');
        expect(error.message).toBe('The image is damaged or incomplete');
      }
    }
  });

  it('refuses a PNG signature followed by garbage', async () => {
    const fake = Buffer.concat([(samples.png as Buffer).subarray(0, 8), Buffer.alloc(2000, 0x41)]);
    expect((await rejection(() => checkImage(fake))).reason).toBe('corrupt');
  });

  it('accepts 320x240 in either orientation and refuses anything smaller', async () => {
    expect(await checkImage(await plain(320, 240))).toMatchObject({ width: 320, height: 240 });
    expect(await checkImage(await plain(240, 320))).toMatchObject({ width: 240, height: 320 });
    const small = await rejection(async () => checkImage(await plain(319, 240)));
    expect(small.reason).toBe('too_small');
    expect(small.message).toBe('The image is 319x240 pixels; at least 320x240 is required');
    expect((await rejection(async () => checkImage(await plain(1000, 200)))).reason).toBe('too_small');
  });

  it('refuses a side over 8192 pixels', async () => {
    const wide = await rejection(async () => checkImage(await plain(8193, 300)));
    expect(wide.reason).toBe('too_large');
    expect(wide.message).toContain('8193x300');
  });

  it('refuses a decompression bomb (small file, over 40 megapixels) without decoding it', async () => {
    const bomb = await plain(8000, 6000);
    expect(bomb.length).toBeLessThan(500_000);
    const error = await rejection(() => checkImage(bomb));
    expect(error.reason).toBe('too_large');
    expect(error.message).toContain('40 megapixels');
  });
});

describe('checkPdf', () => {
  it('accepts a complete PDF, also with trailing whitespace', () => {
    expect(() => checkPdf(pdfSample())).not.toThrow();
    expect(() => checkPdf(Buffer.concat([pdfSample(), Buffer.from('\r\n\r\n')]))).not.toThrow();
  });

  it('refuses a PDF cut short or without its version header', async () => {
    const whole = pdfSample();
    const cut = await rejection(() => checkPdf(whole.subarray(0, Math.floor(whole.length * 0.7))));
    expect(cut).toMatchObject({ reason: 'corrupt', message: 'The PDF is damaged or incomplete' });
    await rejection(() => checkPdf(Buffer.from('%PDF-\n%%EOF\n')));
  });
});
