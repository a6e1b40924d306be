import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../src/engines/ocr/homography.js';
import { lineBands } from '../../../src/engines/ocr/line-bands.js';

// A light card with capitals drawn as rows of dark letter boxes: 50 px high lines packed 6 px apart, as the E/F names.
function card(): RawImage {
  return { data: Buffer.alloc(800 * 400, 230), width: 800, height: 400, channels: 1 };
}

function fill(image: RawImage, x0: number, y0: number, x1: number, y1: number, level = 25): void {
  for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) image.data[y * image.width + x] = level;
}

/** A line of `letters` capitals from `top`: each letter two strokes and a top bar, 40 px wide. */
function line(image: RawImage, top: number, letters: number, left = 100): void {
  for (let i = 0; i < letters; i += 1) {
    const x = left + i * 48;
    fill(image, x, top, x + 8, top + 50);
    fill(image, x + 32, top, x + 40, top + 50);
    fill(image, x, top, x + 40, top + 7);
  }
}

const box = { x0: 60, y0: 40, x1: 760, y1: 260 };

/** Three name lines 50 px high, 6 px apart. */
function names(): RawImage {
  const image = card();
  line(image, 60, 7);
  line(image, 116, 5);
  line(image, 172, 6);
  return image;
}

describe('a block of packed lines cut into its lines', () => {
  it('finds three lines 6 px apart and cuts between them', () => {
    const bands = lineBands(names(), box);
    expect(bands).toHaveLength(3);
    // Each band holds its whole line and reaches no further than the next line's top.
    expect(bands[0]!.y0).toBeLessThanOrEqual(60);
    expect(bands[0]!.y1).toBeGreaterThanOrEqual(110);
    expect(bands[0]!.y1).toBeLessThanOrEqual(117);
    expect(bands[2]!.y1).toBeGreaterThanOrEqual(222);
  });

  it("keeps a tilde in the gap with the line below, and ignores a vertical rule (the photo's edge)", () => {
    const image = names();
    // A tilde over the second line's third letter, rising into the gap; a dark rule down the box's left side.
    fill(image, 196, 111, 226, 115);
    fill(image, 62, 40, 80, 260, 40);
    const bands = lineBands(image, box);
    expect(bands).toHaveLength(3);
    expect(bands[1]!.y0).toBeLessThanOrEqual(111);
    expect(bands[1]!.x0).toBeGreaterThan(80);
  });

  it('cuts two lines that touch (no gap between them) at their thinnest row, one line height apart', () => {
    const image = card();
    line(image, 50, 7);
    // The third line's top bars on the second's last rows: no row between them is blank.
    line(image, 108, 7);
    line(image, 156, 7, 124);
    line(image, 214, 6);
    const bands = lineBands(image, { ...box, y1: 290 });
    expect(bands).toHaveLength(4);
    // The cut falls inside the joined pair, not above the first of them or below the second.
    expect(bands[1]!.y1).toBeGreaterThan(130);
    expect(bands[1]!.y1).toBeLessThan(185);
    expect(bands[2]!.y0).toBeGreaterThan(108);
  });

  it('gives nothing for a blank box', () => {
    expect(lineBands(card(), box)).toEqual([]);
  });
});
