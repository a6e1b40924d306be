import { describe, expect, it } from 'vitest';
import { documentMask, type Rect } from './geometry';
import { assessQuality, downscaleGrey, glareShare, laplacianVariance, qualityThresholds, rgbaToGrey, sideEdgeCoverage, type GreyImage } from './quality';

/** Deterministic pseudo-random numbers (LCG), so the synthetic scenes are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function blank(width: number, height: number, luma: number): GreyImage {
  return { width, height, data: new Uint8ClampedArray(width * height).fill(luma) };
}

function fill(image: GreyImage, rect: Rect, luma: number): void {
  for (let y = Math.max(0, Math.round(rect.y)); y < Math.min(image.height, Math.round(rect.y + rect.height)); y += 1) {
    for (let x = Math.max(0, Math.round(rect.x)); x < Math.min(image.width, Math.round(rect.x + rect.width)); x += 1) {
      image.data[y * image.width + x] = luma;
    }
  }
}

function addNoise(image: GreyImage, amplitude: number, seed: number): void {
  const next = random(seed);
  for (let i = 0; i < image.data.length; i += 1) image.data[i] = image.data[i]! + (next() - 0.5) * 2 * amplitude;
}

/**
 * A light ID card (luma 205) on a dark table (luma 25): a portrait block and rows of short dark
 * strokes standing for the printed text, with mild sensor noise.
 */
function cardScene(width = 960, height = 540, card: Rect = documentMask({ width, height })): GreyImage {
  const image = blank(width, height, 25);
  fill(image, card, 205);
  fill(image, { x: card.x + card.width * 0.05, y: card.y + card.height * 0.22, width: card.width * 0.24, height: card.height * 0.6 }, 120);
  const next = random(7);
  for (let row = card.y + card.height * 0.2; row < card.y + card.height * 0.9; row += 16) {
    let x = card.x + card.width * 0.34;
    while (x < card.x + card.width * 0.95) {
      const stroke = 2 + Math.floor(next() * 5);
      fill(image, { x, y: row, width: stroke, height: 9 }, 40);
      x += stroke + 2 + Math.floor(next() * 6);
      if (next() < 0.12) x += 14;
    }
  }
  addNoise(image, 3, 11);
  return image;
}

/** Separable box blur of the given radius, applied `passes` times (three passes approximate a Gaussian). */
function boxBlur(image: GreyImage, radius: number, passes = 2): GreyImage {
  let current = Float32Array.from(image.data);
  const { width, height } = image;
  const size = 2 * radius + 1;
  for (let pass = 0; pass < passes; pass += 1) {
    const horizontal = new Float32Array(current.length);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        let sum = 0;
        for (let k = -radius; k <= radius; k += 1) sum += current[y * width + Math.min(width - 1, Math.max(0, x + k))]!;
        horizontal[y * width + x] = sum / size;
      }
    }
    const vertical = new Float32Array(current.length);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        let sum = 0;
        for (let k = -radius; k <= radius; k += 1) sum += horizontal[Math.min(height - 1, Math.max(0, y + k)) * width + x]!;
        vertical[y * width + x] = sum / size;
      }
    }
    current = vertical;
  }
  return { width, height, data: Uint8ClampedArray.from(current) };
}

/** The whole scene rotated about its centre (nearest neighbour; uncovered corners take the table's luma). */
function rotate(image: GreyImage, degrees: number): GreyImage {
  const { width, height } = image;
  const out = new Uint8ClampedArray(width * height).fill(25);
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const dx = x - width / 2;
      const dy = y - height / 2;
      const sx = Math.round(cos * dx + sin * dy + width / 2);
      const sy = Math.round(-sin * dx + cos * dy + height / 2);
      if (sx >= 0 && sx < width && sy >= 0 && sy < height) out[y * width + x] = image.data[sy * width + sx]!;
    }
  }
  return { width, height, data: out };
}

function addGlare(image: GreyImage, cx: number, cy: number, radius: number): void {
  for (let y = Math.floor(cy - radius); y <= cy + radius; y += 1) {
    for (let x = Math.floor(cx - radius); x <= cx + radius; x += 1) {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2) image.data[y * image.width + x] = 255;
    }
  }
}

const W = 960;
const H = 540;
const mask = documentMask({ width: W, height: H });
const maskArea = mask.width * mask.height;

describe('quality check: a sharp card passes', () => {
  it('a sharp card on a dark background passes every check', () => {
    const report = assessQuality(cardScene(), mask);
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.metrics.edgesFound).toBe(4);
    expect(report.metrics.laplacianVariance).toBeGreaterThan(qualityThresholds.blurMinLaplacianVariance * 3);
  });

  it('tolerates a card up to about 20% off the guide (held a little closer, farther or off-centre)', () => {
    const variants: Rect[] = [
      { x: mask.x - mask.width * 0.06, y: mask.y - mask.height * 0.06, width: mask.width * 1.12, height: mask.height * 1.12 },
      { x: mask.x + mask.width * 0.06, y: mask.y + mask.height * 0.06, width: mask.width * 0.88, height: mask.height * 0.88 },
      { x: mask.x + mask.width * 0.1, y: mask.y, width: mask.width, height: mask.height },
      { x: mask.x + mask.width * 0.14, y: mask.y + mask.height * 0.14, width: mask.width * 0.72, height: mask.height * 0.72 },
    ];
    for (const card of variants) expect(assessQuality(cardScene(W, H, card), mask).issues).toEqual([]);
  });

  it('tolerates a card held tilted by up to about 7 degrees', () => {
    for (const degrees of [-7, -3, 4, 7]) {
      const report = assessQuality(rotate(cardScene(W, H, { x: mask.x + mask.width * 0.03, y: mask.y + mask.height * 0.03, width: mask.width * 0.94, height: mask.height * 0.94 }), degrees), mask);
      expect(report.issues, `${degrees}°`).toEqual([]);
    }
  });

  it('works the same in a portrait frame (phones deliver portrait streams)', () => {
    const portrait = { width: 540, height: 960 };
    const guide = documentMask(portrait);
    expect(assessQuality(cardScene(portrait.width, portrait.height, guide), guide).ok).toBe(true);
  });
});

describe('quality check: blur', () => {
  it('the box-blurred card fails on blur only (the card is still found)', () => {
    const report = assessQuality(boxBlur(cardScene(), 3), mask);
    expect(report.issues).toEqual(['blur']);
  });

  it('the threshold sits between a slightly soft capture (passes) and a defocused one (fails)', () => {
    const soft = laplacianVariance(boxBlur(cardScene(), 1, 1), mask);
    const defocused = laplacianVariance(boxBlur(cardScene(), 2), mask);
    expect(soft).toBeGreaterThan(qualityThresholds.blurMinLaplacianVariance);
    expect(defocused).toBeLessThan(qualityThresholds.blurMinLaplacianVariance);
  });

  it('sensor noise alone on an empty frame does not read as sharpness', () => {
    const image = blank(W, H, 30);
    addNoise(image, 3, 5);
    expect(laplacianVariance(image, mask)).toBeLessThan(qualityThresholds.blurMinLaplacianVariance);
  });
});

describe('quality check: glare', () => {
  it('a saturated blob over 4% of the card fails', () => {
    const image = cardScene();
    const radius = Math.sqrt((0.06 * maskArea) / Math.PI);
    addGlare(image, mask.x + mask.width * 0.6, mask.y + mask.height * 0.45, radius);
    const report = assessQuality(image, mask);
    expect(report.issues).toContain('glare');
    expect(report.metrics.glareClusterShare).toBeGreaterThan(0.05);
  });

  it('the same amount of saturated pixels scattered in small specks passes', () => {
    const image = cardScene();
    const next = random(3);
    // ~6% of the card area in 3x3 specks, none touching.
    const specks = Math.round((0.06 * maskArea) / 9);
    for (let i = 0; i < specks; i += 1) {
      const x = Math.floor(mask.x + 2 + next() * (mask.width - 6));
      const y = Math.floor(mask.y + 2 + next() * (mask.height - 6));
      fill(image, { x: x - (x % 4), y: y - (y % 4), width: 3, height: 3 }, 255);
    }
    const glare = glareShare(image, mask, qualityThresholds.glareLuma);
    expect(glare.saturatedShare).toBeGreaterThan(0.03);
    expect(glare.largestClusterShare).toBeLessThan(qualityThresholds.glareMaxClusterShare);
    expect(assessQuality(image, mask).issues).not.toContain('glare');
  });

  it('a white printed area (an MRZ band on a well-exposed back) is not glare: its print shows through', () => {
    const image = cardScene();
    const band = { x: mask.x, y: mask.y + mask.height * 0.66, width: mask.width, height: mask.height * 0.34 };
    fill(image, band, 253);
    const next = random(5);
    for (let row = band.y + 14; row < band.y + band.height - 20; row += 34) {
      for (let x = band.x + 24; x < band.x + band.width - 30; x += 21) fill(image, { x, y: row, width: 11 + Math.floor(next() * 4), height: 20 }, 30);
    }
    const glare = glareShare(image, mask, qualityThresholds.glareLuma, qualityThresholds.glareMaxClusterShare, qualityThresholds.glareMaxHoleShare);
    expect(glare.largestClusterShare).toBeGreaterThan(0.2);
    expect(glare.largestSolidClusterShare).toBe(0);
    expect(assessQuality(image, mask).issues).toEqual([]);
  });

  it('a reflection washing out the print is glare, even next to a white printed band', () => {
    const image = cardScene();
    fill(image, { x: mask.x, y: mask.y + mask.height * 0.7, width: mask.width, height: mask.height * 0.3 }, 253);
    for (let x = mask.x + 20; x < mask.x + mask.width - 20; x += 20) fill(image, { x, y: mask.y + mask.height * 0.8, width: 10, height: 18 }, 30);
    addGlare(image, mask.x + mask.width * 0.55, mask.y + mask.height * 0.35, Math.sqrt((0.06 * maskArea) / Math.PI));
    expect(assessQuality(image, mask).issues).toEqual(['glare']);
  });

  it('a small reflection (2% of the card) is tolerated', () => {
    const image = cardScene();
    addGlare(image, mask.x + mask.width * 0.5, mask.y + mask.height * 0.5, Math.sqrt((0.02 * maskArea) / Math.PI));
    expect(assessQuality(image, mask).issues).toEqual([]);
  });
});

describe('quality check: document found', () => {
  it('an empty frame fails the document check', () => {
    const image = blank(W, H, 28);
    addNoise(image, 4, 9);
    const report = assessQuality(image, mask);
    expect(report.issues[0]).toBe('document');
    expect(report.metrics.edgesFound).toBe(0);
  });

  it('a card far from the guide (a small card in a corner) is not found', () => {
    const card = { x: 20, y: 20, width: mask.width * 0.4, height: mask.height * 0.4 };
    expect(assessQuality(cardScene(W, H, card), mask).issues).toContain('document');
  });

  it('a card filling the whole frame (held too close, borders cut off) is not found', () => {
    const report = assessQuality(cardScene(W, H, { x: -10, y: -10, width: W + 20, height: H + 20 }), mask);
    expect(report.issues).toContain('document');
  });

  it('a busy background without a card (scattered print) is not taken for one', () => {
    const image = blank(W, H, 200);
    const next = random(21);
    for (let i = 0; i < 4000; i += 1) fill(image, { x: next() * W, y: next() * H, width: 3, height: 9 }, 40);
    expect(assessQuality(image, mask).issues).toContain('document');
  });

  it('finds a border by its continuity along the side', () => {
    const image = cardScene();
    expect(sideEdgeCoverage(image, mask, 'left')).toBeGreaterThan(0.95);
    expect(sideEdgeCoverage(blank(W, H, 25), mask, 'left')).toBe(0);
  });

  it('a light card on a light table: two borders and the brightness difference are enough', () => {
    const image = blank(W, H, 110);
    // Around the top and bottom borders the table is nearly as light as the card: those borders vanish.
    const band = (qualityThresholds.edgeBand + 0.03) * mask.height;
    fill(image, { x: 0, y: mask.y - band, width: W, height: 2 * band }, 205);
    fill(image, { x: 0, y: mask.y + mask.height - band, width: W, height: 2 * band }, 205);
    fill(image, mask, 215);
    const report = assessQuality(image, mask);
    expect(report.metrics.edgesFound).toBe(2);
    expect(report.metrics.contrast).toBeGreaterThan(qualityThresholds.documentMinContrast);
    expect(report.issues).not.toContain('document');
  });
});

describe('grey conversion and downscaling', () => {
  it('converts RGBA to Rec. 601 luma', () => {
    const rgba = Uint8ClampedArray.from([255, 255, 255, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
    expect(Array.from(rgbaToGrey(rgba, 4, 1).data)).toEqual([255, 76, 150, 29]);
  });

  it('area-averages down to the analysis width and keeps the checks stable', () => {
    const full = cardScene(1920, 1080);
    const small = downscaleGrey(full, qualityThresholds.analysisMaxWidth);
    expect(small.width).toBe(960);
    expect(small.height).toBe(540);
    expect(assessQuality(small, documentMask(small)).ok).toBe(true);
    expect(downscaleGrey(small, 2000)).toBe(small);
  });
});
