import { describe, expect, it } from 'vitest';
import { detectCard, edgeSteps, otsuThreshold, robustLineFit, type GreyImage } from '../../../src/engines/ocr/card-detect.js';
import { applyHomography, isPlausibleCardQuad, topEdgeAngleDeg, unitSquareToQuad, warpQuad, type Quad } from '../../../src/engines/ocr/homography.js';
import { locateMrzBand } from '../../../src/engines/ocr/mrz-locate.js';

/** A bright card (the quad) on a dark table, antialiasing left out. */
function photo(width: number, height: number, quad: Quad): GreyImage {
  const data = new Uint8Array(width * height).fill(40);
  const inside = (x: number, y: number) => {
    for (let i = 0; i < 4; i++) {
      const [ax, ay] = quad[i]!;
      const [bx, by] = quad[(i + 1) % 4]!;
      if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) return false;
    }
    return true;
  };
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (inside(x + 0.5, y + 0.5)) data[y * width + x] = 225;
  return { data, width, height };
}

describe('card detection', () => {
  const quad: Quad = [
    [120, 90],
    [520, 60],
    [545, 320],
    [140, 345],
  ];

  it('finds the corners of a tilted card to within a pixel or two', () => {
    const found = detectCard(photo(640, 400, quad));
    expect(found).not.toBeNull();
    found!.quad.forEach(([x, y], i) => {
      expect(Math.abs(x - quad[i]![0])).toBeLessThan(2);
      expect(Math.abs(y - quad[i]![1])).toBeLessThan(2);
    });
    expect(topEdgeAngleDeg(found!.quad)).toBeCloseTo(-4.3, 0);
  });

  it('finds nothing when the image is the card itself', () => {
    expect(detectCard({ data: new Uint8Array(640 * 400).fill(220), width: 640, height: 400 })).toBeNull();
  });

  it('takes no shading boundary for a card edge: a page that fills the frame under uneven light is no card', () => {
    // Bright where the light falls, fading towards the frame (an infrared scan, a phone's vignetting): Otsu
    // splits the page into a lit and a shaded part, whose boundary has no brightness step across it.
    for (const [strength, centreY] of [
      [150, 0.1],
      [260, 0.3],
      [400, 0.1],
    ] as const) {
      const width = 640;
      const height = 450;
      const data = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const dx = x / width - 0.62;
          const dy = y / height - centreY;
          data[y * width + x] = Math.max(0, Math.round(235 - strength * (dx * dx + dy * dy)));
        }
      }
      expect(detectCard({ data, width, height })).toBeNull();
    }
  });

  it('still finds a card on a surface only a little darker than itself, and measures the step at each edge', () => {
    const image = photo(640, 400, quad);
    for (let i = 0; i < image.data.length; i++) if (image.data[i] === 40) image.data[i] = 185;
    const found = detectCard(image);
    expect(found).not.toBeNull();
    const steps = edgeSteps(image, found!.quad);
    for (const step of steps) expect(step).toBeCloseTo(40, -1);
  });

  it('thresholds between the two populations', () => {
    const t = otsuThreshold(
      photo(200, 100, [
        [20, 20],
        [180, 20],
        [180, 80],
        [20, 80],
      ]),
    );
    expect(t).toBeGreaterThanOrEqual(40);
    expect(t).toBeLessThan(225);
  });

  it('fits a line despite outliers', () => {
    const samples: Array<[number, number]> = Array.from({ length: 50 }, (_, t) => [t, 2 * t + 3]);
    samples.push([10, 90], [20, -40]);
    const line = robustLineFit(samples)!;
    expect(line.a).toBeCloseTo(2, 5);
    expect(line.b).toBeCloseTo(3, 5);
  });
});

describe('homography and warp', () => {
  it('maps the unit square onto the quad', () => {
    const quad: Quad = [
      [10, 20],
      [110, 15],
      [120, 90],
      [5, 95],
    ];
    const m = unitSquareToQuad(quad);
    const corners: Array<[number, number]> = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    corners.forEach(([u, v], i) => {
      const [x, y] = applyHomography(m, u, v);
      expect(x).toBeCloseTo(quad[i]![0], 6);
      expect(y).toBeCloseTo(quad[i]![1], 6);
    });
    expect(isPlausibleCardQuad(quad)).toBe(true);
    expect(
      isPlausibleCardQuad([
        [0, 0],
        [100, 0],
        [10, 10],
        [0, 100],
      ]),
    ).toBe(false);
  });

  it('straightens a tilted card back to its upright pixels', () => {
    const quad: Quad = [
      [120, 90],
      [520, 60],
      [545, 320],
      [140, 345],
    ];
    const image = photo(640, 400, quad);
    const upright = warpQuad({ data: Buffer.from(image.data), width: 640, height: 400, channels: 1 }, quad, 200, 126);
    const inner = [...upright.data.subarray(200 * 10 + 10, 200 * 10 + 190)];
    expect(Math.min(...inner)).toBe(225);
  });
});

describe('locateMrzBand', () => {
  it('finds three evenly spaced lines of fixed-pitch print at the bottom, and nothing on a blank card', () => {
    const width = 2000;
    const height = 1262;
    const card = { data: Buffer.alloc(width * height, 235), width, height, channels: 1 };
    expect(locateMrzBand(card)).toBeNull();
    const pitch = (2.54 / 85.6) * width;
    for (const top of [900, 1000, 1100]) {
      for (let c = 0; c < 30; c++) {
        const x0 = Math.round(140 + c * pitch);
        for (let y = top; y < top + 50; y++) for (let x = x0; x < x0 + 12; x++) card.data[y * width + x] = 20;
        for (let y = top; y < top + 50; y++) for (let x = x0 + 24; x < x0 + 36; x++) card.data[y * width + x] = 20;
      }
    }
    const band = locateMrzBand(card);
    expect(band).toMatchObject({ lines: 3 });
    expect(band!.top).toBeLessThan(900);
    expect(band!.bottom).toBeGreaterThan(1150);
  });
});
