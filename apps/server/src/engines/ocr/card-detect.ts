/**
 * Finds a bright card lying on a darker surface in a small greyscale copy of a photo: Otsu threshold,
 * the largest bright connected region, its outer boundary, and one robust line fitted to each border
 * (rounded corners and the shadow are left out of the fit). Pure functions on raw pixels.
 */
import { isPlausibleCardQuad, quadArea, type Point, type Quad } from './homography.js';

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export function otsuThreshold(image: GreyImage): number {
  const histogram = new Array<number>(256).fill(0);
  for (const value of image.data) histogram[value]!++;
  const total = image.data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * histogram[i]!;
  let sumBelow = 0;
  let countBelow = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    countBelow += histogram[t]!;
    if (countBelow === 0) continue;
    const countAbove = total - countBelow;
    if (countAbove === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / countBelow;
    const meanAbove = (sumAll - sumBelow) / countAbove;
    const between = countBelow * countAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** Share of the image's outer ring (2% deep) brighter than the threshold. */
function brightBorderShare(image: GreyImage, threshold: number): number {
  const { data, width, height } = image;
  const depth = Math.max(1, Math.round(Math.min(width, height) * 0.02));
  let bright = 0;
  let count = 0;
  for (let y = 0; y < height; y++) {
    const edgeRow = y < depth || y >= height - depth;
    for (let x = 0; x < width; x++) {
      if (!edgeRow && x >= depth && x < width - depth) continue;
      count++;
      if (data[y * width + x]! > threshold) bright++;
    }
  }
  return bright / count;
}

/** Label of the largest 4-connected region of `mask` pixels, as a 0/1 map. */
function largestRegion(mask: Uint8Array, width: number, height: number): { region: Uint8Array; size: number } {
  const labels = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  let bestLabel = 0;
  let bestSize = 0;
  let label = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    label++;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    let size = 0;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
      const x = p % width;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const n of neighbours) {
        if (n < 0 || n >= mask.length || !mask[n] || labels[n]) continue;
        labels[n] = label;
        stack[top++] = n;
      }
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = label;
    }
  }
  const region = new Uint8Array(width * height);
  for (let i = 0; i < region.length; i++) region[i] = labels[i] === bestLabel ? 1 : 0;
  return { region, size: bestSize };
}

/** Line a*t + b fitted to (t, s) samples, refitted twice without the samples far from it. */
export function robustLineFit(samples: Array<[number, number]>): { a: number; b: number } | null {
  let kept = samples;
  let line: { a: number; b: number } | null = null;
  for (let pass = 0; pass < 3; pass++) {
    if (kept.length < 5) return line;
    let st = 0;
    let ss = 0;
    let stt = 0;
    let sts = 0;
    for (const [t, s] of kept) {
      st += t;
      ss += s;
      stt += t * t;
      sts += t * s;
    }
    const n = kept.length;
    const den = n * stt - st * st;
    if (den === 0) return line;
    const a = (n * sts - st * ss) / den;
    line = { a, b: (ss - a * st) / n };
    const residuals = kept.map(([t, s]) => Math.abs(s - (line!.a * t + line!.b)));
    const sorted = [...residuals].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const limit = Math.max(1, median * 3);
    kept = kept.filter((_, i) => residuals[i]! <= limit);
  }
  return line;
}

type Line = { kind: 'y-of-x' | 'x-of-y'; a: number; b: number };

function intersect(p: Line, q: Line): Point {
  // p: y = a x + b (horizontal-ish), q: x = a y + b (vertical-ish).
  const h = p.kind === 'y-of-x' ? p : q;
  const v = p.kind === 'y-of-x' ? q : p;
  const y = (h.a * v.b + h.b) / (1 - h.a * v.a);
  return [v.a * y + v.b, y];
}

export interface CardDetection {
  quad: Quad;
  /** Card area over image area. */
  coverage: number;
}

/**
 * The card's corners in `image` pixels, or null when the image is the card itself (its border is
 * bright), no bright region big enough exists, or the region is not card-shaped.
 */
export function detectCard(image: GreyImage, minCoverage = 0.12): CardDetection | null {
  const { data, width, height } = image;
  const threshold = otsuThreshold(image);
  if (brightBorderShare(image, threshold) > 0.5) return null;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[i]! > threshold ? 1 : 0;
  const { region, size } = largestRegion(mask, width, height);
  if (size < width * height * minCoverage) return null;

  // Outer boundary: the first region pixel from each side, per row and per column.
  const top: Array<[number, number]> = [];
  const bottom: Array<[number, number]> = [];
  const left: Array<[number, number]> = [];
  const right: Array<[number, number]> = [];
  for (let x = 0; x < width; x++) {
    let y0 = -1;
    let y1 = -1;
    for (let y = 0; y < height; y++) {
      if (region[y * width + x]) {
        if (y0 < 0) y0 = y;
        y1 = y;
      }
    }
    if (y0 >= 0) {
      top.push([x, y0]);
      bottom.push([x, y1 + 1]);
    }
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let x0 = -1;
    let x1 = -1;
    for (let x = 0; x < width; x++) {
      if (region[row + x]) {
        if (x0 < 0) x0 = x;
        x1 = x;
      }
    }
    if (x0 >= 0) {
      left.push([y, x0]);
      right.push([y, x1 + 1]);
    }
  }

  // Rough corners from the extremes of x+y and x-y.
  const points: Point[] = [...top.map(([x, y]): Point => [x, y]), ...bottom.map(([x, y]): Point => [x, y])];
  const extreme = (score: (p: Point) => number): Point => points.reduce((best, p) => (score(p) > score(best) ? p : best), points[0]!);
  const tl = extreme(([x, y]) => -x - y);
  const tr = extreme(([x, y]) => x - y);
  const br = extreme(([x, y]) => x + y);
  const bl = extreme(([x, y]) => -x + y);

  // Keep the middle 70% of each border: away from the rounded corners.
  const within = (t: number, a: number, b: number) => {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const margin = (hi - lo) * 0.15;
    return t >= lo + margin && t <= hi - margin;
  };
  const fit = (samples: Array<[number, number]>, from: number, to: number) => robustLineFit(samples.filter(([t]) => within(t, from, to)));
  const topLine = fit(top, tl[0], tr[0]);
  const bottomLine = fit(bottom, bl[0], br[0]);
  const leftLine = fit(left, tl[1], bl[1]);
  const rightLine = fit(right, tr[1], br[1]);
  if (!topLine || !bottomLine || !leftLine || !rightLine) return null;
  const T: Line = { kind: 'y-of-x', ...topLine };
  const B: Line = { kind: 'y-of-x', ...bottomLine };
  const L: Line = { kind: 'x-of-y', ...leftLine };
  const R: Line = { kind: 'x-of-y', ...rightLine };
  const quad: Quad = [intersect(T, L), intersect(T, R), intersect(B, R), intersect(B, L)];
  if (!quad.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) return null;
  if (!isPlausibleCardQuad(quad)) return null;
  const coverage = quadArea(quad) / (width * height);
  if (coverage < minCoverage) return null;
  // The bright region of a page that fills the frame under uneven light ends where the light fades, not at an
  // edge: a card's border is a step in brightness, a shading boundary is not.
  if (edgeSteps(image, quad).some((step) => step !== null && step < MIN_EDGE_STEP)) return null;
  return { quad, coverage };
}

/** Brightness step (inside minus outside) a card's border shows; a shading boundary shows a few levels. */
const MIN_EDGE_STEP = 25;

/**
 * For each side of `quad` (corner i to i+1), the median brightness step across it: the mean of the pixels 3-5 px
 * inside less that of the pixels 3-5 px outside, sampled along its middle 70%. Null for a side that lies on the
 * frame (fewer than a third of its samples have an outside in the image).
 */
export function edgeSteps(image: GreyImage, quad: Quad): Array<number | null> {
  const { data, width, height } = image;
  const cx = quad.reduce((s, p) => s + p[0], 0) / 4;
  const cy = quad.reduce((s, p) => s + p[1], 0) / 4;
  const at = (x: number, y: number): number | null => {
    const xi = Math.round(x);
    const yi = Math.round(y);
    return xi < 0 || yi < 0 || xi >= width || yi >= height ? null : data[yi * width + xi]!;
  };
  return quad.map((a, i) => {
    const b = quad[(i + 1) % 4]!;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length === 0) return null;
    let nx = -(b[1] - a[1]) / length;
    let ny = (b[0] - a[0]) / length;
    // Outward: away from the quad's centre.
    if (nx * (cx - (a[0] + b[0]) / 2) + ny * (cy - (a[1] + b[1]) / 2) > 0) {
      nx = -nx;
      ny = -ny;
    }
    const steps: number[] = [];
    let samples = 0;
    for (let k = 15; k <= 85; k++) {
      samples++;
      const px = a[0] + ((b[0] - a[0]) * k) / 100;
      const py = a[1] + ((b[1] - a[1]) * k) / 100;
      let step = 0;
      for (const d of [3, 4, 5]) {
        const outside = at(px + nx * d, py + ny * d);
        const inside = at(px - nx * d, py - ny * d);
        if (outside === null || inside === null) {
          step = Number.NaN;
          break;
        }
        step += (inside - outside) / 3;
      }
      if (!Number.isNaN(step)) steps.push(step);
    }
    if (steps.length < samples / 3) return null;
    steps.sort((x, y) => x - y);
    return steps[Math.floor(steps.length / 2)]!;
  });
}

/**
 * Where the print is when no card edge can be seen (the card fills or overflows the frame, or lies on a surface
 * as bright as itself): pixels clearly darker than their neighbourhood (a 31-pixel box mean) count as ink, the
 * rows and columns holding the central 98% of the ink bound the text block, and a margin of 6% is added for the
 * card's blank border. Null when that block is most of the frame anyway (nothing to crop) or holds no ink.
 */
export function textBlockExtent(image: GreyImage): CardDetection | null {
  const { data, width, height } = image;
  const integral = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x]!;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  const r = 15;
  const rows = new Float64Array(height);
  const cols = new Float64Array(width);
  let total = 0;
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const sum = integral[y1 * (width + 1) + x1]! - integral[y0 * (width + 1) + x1]! - integral[y1 * (width + 1) + x0]! + integral[y0 * (width + 1) + x0]!;
      const mean = sum / ((x1 - x0) * (y1 - y0));
      if (data[y * width + x]! < mean - INK_CONTRAST) {
        rows[y]!++;
        cols[x]!++;
        total++;
      }
    }
  }
  if (total < width * height * 0.002) return null;
  const span = (counts: Float64Array): [number, number] => {
    let seen = 0;
    let first = 0;
    let last = counts.length - 1;
    for (let i = 0; i < counts.length; i++) {
      seen += counts[i]!;
      if (seen < total * 0.01) first = i + 1;
      if (seen <= total * 0.99) last = i;
    }
    return [first, Math.min(counts.length - 1, last + 1)];
  };
  const [top, bottom] = span(rows);
  const [left, right] = span(cols);
  const mx = (right - left) * 0.06;
  const my = (bottom - top) * 0.06;
  const x0 = Math.max(0, left - mx);
  const y0 = Math.max(0, top - my);
  const x1 = Math.min(width, right + mx);
  const y1 = Math.min(height, bottom + my);
  const coverage = ((x1 - x0) * (y1 - y0)) / (width * height);
  if (coverage > 0.85 || x1 - x0 < width * 0.2 || y1 - y0 < height * 0.2) return null;
  return {
    quad: [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ],
    coverage,
  };
}

/** How much darker than its neighbourhood a pixel must be to count as print. */
const INK_CONTRAST = 25;
