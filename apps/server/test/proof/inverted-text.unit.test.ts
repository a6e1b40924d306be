import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { degradeProof, renderProof } from '@kyc/fixtures';
import { straighten } from '../../src/engines/ocr/geometry.js';
import { invertedTextRegions } from '../../src/engines/ocr/inverted-text.js';
import type { Box } from '../../src/engines/ocr/page.js';

async function grey(png: Buffer) {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const near = (found: Box[], want: Box, slack = 10): boolean =>
  found.some((b) => Math.abs(b.x0 - want.x0) <= slack && Math.abs(b.x1 - want.x1) <= slack && Math.abs(b.y0 - want.y0) <= slack && Math.abs(b.y1 - want.y1) <= slack);
const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

describe('light print on dark bands', () => {
  it('finds the white-on-green headers of a generated CFE bill, and not its dark print on paper', async () => {
    const bill = await renderProof({ seed: 'bands-1', layout: 'cfe', referenceDate: '2026-11-26' });
    const bands = invertedTextRegions(await grey(bill.png));
    // Where packages/fixtures draws them (the real bill's layout): the amount, service number and due-date
    // headers of the right column, and the period table's two-line header.
    expect(near(bands, { x0: 960, y0: 110, x1: 1600, y1: 158 })).toBe(true);
    expect(near(bands, { x0: 960, y0: 288, x1: 1600, y1: 334 })).toBe(true);
    expect(near(bands, { x0: 960, y0: 412, x1: 1600, y1: 458 })).toBe(true);
    expect(near(bands, { x0: 960, y0: 840, x1: 1600, y1: 910 })).toBe(true);
    // The holder's block (bold black on white) and the big amount are not bands.
    expect(bands.some((b) => overlaps(b, { x0: 60, y0: 320, x1: 900, y1: 570 }))).toBe(false);
    expect(bands.some((b) => overlaps(b, { x0: 1000, y0: 170, x1: 1560, y1: 240 }))).toBe(false);
  });

  it('on a phone photo of the bill, straightened: each header is one band, and the blurred bold digits under it are none', async () => {
    const bill = await renderProof({ seed: 'real-r1', layout: 'cfe', referenceDate: '2026-11-26' });
    const photo = await degradeProof(bill, 'phone');
    const page = await straighten(photo.png, { cardWidth: 1700, quarterTurns: 3 });
    expect(page.geometry.cardFound).toBe(true);
    const bands = invertedTextRegions(page.grey);
    // The right column's 'Número de servicio' and 'Fecha límite de pago' headers, whose thick white letters split
    // them into pieces before the pieces were joined (the page is cut ~4 % shorter than the drawn bill).
    expect(bands.some((b) => b.x0 < 975 && b.x1 > 1580 && b.y0 > 180 && b.y1 < 270)).toBe(true);
    expect(bands.some((b) => b.x0 < 975 && b.x1 > 1580 && b.y0 > 300 && b.y1 < 390)).toBe(true);
    // The service number '558 893 740 656' (bold black, blurred into a dark strip) and the barcode are not bands.
    expect(bands.some((b) => overlaps(b, { x0: 1000, y0: 262, x1: 1560, y1: 310 }))).toBe(false);
    expect(bands.some((b) => overlaps(b, { x0: 60, y0: 1760, x1: 1000, y1: 1920 }))).toBe(false);
  }, 30_000);

  it('finds none on a page of dark print and box borders only', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="#fff"/>
      <rect x="40" y="40" width="1100" height="300" fill="none" stroke="#222" stroke-width="5"/>
      ${Array.from({ length: 12 }, (_, i) => `<rect x="${80 + (i % 4) * 250}" y="${80 + Math.floor(i / 4) * 70}" width="200" height="14" fill="#111"/>`).join('')}
      <rect x="80" y="500" width="60" height="60" fill="#111"/></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect(invertedTextRegions(await grey(png))).toEqual([]);
  });
});
