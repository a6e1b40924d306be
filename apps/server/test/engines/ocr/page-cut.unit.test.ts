import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../src/engines/ocr/homography.js';
import { blankRow } from '../../../src/engines/ocr/page-cut.js';

/** A light card with rows of dark "letters" (6 px strokes every 14 px) between the given heights. */
function card(rows: Array<[number, number]>, width = 800, height = 500): RawImage {
  const data = Buffer.alloc(width * height, 225);
  for (const [top, bottom] of rows) {
    for (let y = top; y < bottom; y++) for (let x = 40; x < width - 40; x++) if (x % 14 < 6) data[y * width + x] = 30;
  }
  return { data, width, height, channels: 1 };
}

describe('blankRow', () => {
  it('cuts in a gap between lines of print, not through a line', () => {
    // Lines of print 24 px high with 12 px gaps down the whole card.
    const lines: Array<[number, number]> = [];
    for (let top = 10; top + 24 < 500; top += 36) lines.push([top, top + 24]);
    const cut = blankRow(card(lines));
    expect(cut).not.toBeNull();
    expect(cut!).toBeGreaterThan(500 * 0.38);
    expect(cut!).toBeLessThan(500 * 0.62);
    expect(lines.some(([top, bottom]) => cut! >= top && cut! < bottom)).toBe(false);
  });

  it('finds no cut when print crosses every row near the middle', () => {
    expect(blankRow(card([[150, 350]]))).toBeNull();
  });
});
