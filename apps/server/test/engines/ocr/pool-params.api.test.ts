// The pool's per-read parameters reach tesseract: a white-on-black line is read only when the recogniser may take
// its second, inverted look (`tryInverted`, off for the INE front's dark-on-light reads; docs/decisions.md "OCR speed,
// continued").
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OcrPool } from '../../../src/engines/ocr/pool.js';

let pool: OcrPool;
let whiteOnBlack: Buffer;
let blackOnWhite: Buffer;

const line = (ink: string, paper: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="140"><rect width="900" height="140" fill="${paper}"/><text x="30" y="95" font-family="DejaVu Sans" font-size="64" fill="${ink}">MORELOS 2024</text></svg>`,
    ),
  )
    .greyscale()
    .png()
    .toBuffer();

beforeAll(async () => {
  [pool, whiteOnBlack, blackOnWhite] = await Promise.all([OcrPool.create({ textWorkers: 1 }), line('#fff', '#000'), line('#000', '#fff')]);
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

describe('OcrPool.readText tryInverted', () => {
  it('reads light print on dark by default (tesseract inverts a doubtful line)', async () => {
    expect((await pool.readText(whiteOnBlack, { segmentation: 'line' })).text.trim()).toBe('MORELOS 2024');
  });

  it('does not take the inverted look when told print is dark on light', async () => {
    expect((await pool.readText(whiteOnBlack, { segmentation: 'line', tryInverted: false })).text.trim()).not.toBe('MORELOS 2024');
  });

  it('reads dark print on light the same either way', async () => {
    const [plain, noInvert] = await Promise.all([pool.readText(blackOnWhite, { segmentation: 'line' }), pool.readText(blackOnWhite, { segmentation: 'line', tryInverted: false })]);
    expect(plain.text.trim()).toBe('MORELOS 2024');
    expect(noInvert.text).toBe(plain.text);
  });
});
