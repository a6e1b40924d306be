/**
 * Evidence that the face in the video is shown on a screen (or a print) held up to the camera, measured on a few
 * decoded frames (issue 18, item 3). Pure and cheap: 3 frames, 64 px luminance patches and a 160x120 copy.
 *
 * - moiré: the display's pixel grid beating against the camera's sensor leaves isolated peaks of periodic
 *   high-frequency energy in the spectrum of the face region (2-D FFT of 64x64 luminance patches, averaged).
 * - banding: a display's refresh or backlight PWM against a rolling shutter leaves horizontal bands that roll from
 *   frame to frame: a periodic row profile of the *difference* of two frames (static stripes cancel out).
 * - bezel: long straight edges enclosing the face on three or four sides (a phone's or monitor's frame).
 * - dark frame: those edges that run along a near-black strip (the display's unlit border and frame); a closed
 *   dark frame (all four sides) is what a screen shows and a doorway or a desk edge does not.
 * - glare: a flat, saturated, near-white blob around the face (a lamp reflected on the glass).
 * - gamut: the display's bluish white in the brightest pixels around the face.
 *
 * Each signal is a number recorded with the decision; a signal over its threshold is "strong". A screen is
 * judged only on agreeing evidence (screenVerdict): no single signal refuses a video.
 */
import type { RgbImage } from '../../engines/face/types.js';

export type FaceBox = [number, number, number, number];

export interface ScreenFrame {
  image: RgbImage;
  /** The face's box in the frame (the largest face), or null. */
  face: FaceBox | null;
}

export const screenThresholds = {
  /** Frames measured (pairs for banding): spread over the video. */
  frames: 3,
  /** Isolated spectral peak of the face patches, times the median of its frequency ring (docs/decisions.md). */
  moire: 4,
  /** Isolated peak of the row profile of frame differences, times the band's median, in every pair measured. */
  banding: 8,
  /** Sides of the face with a long straight edge: all four (a doorway behind a person gives three). */
  bezelSides: 4,
  /** Sides whose edge runs along a near-black strip (darkFrameSides): all four. */
  darkFrameSides: 4,
  /** Share of the face's surroundings covered by one flat near-white blob. */
  glare: 0.02,
  /** Mean (B - R) / luma of the brightest pixels around the face: recorded, never counted (light colour varies too much). */
  blueCast: 0.12,
  /** Strong signals that make the evidence strong enough to refuse, and to call it a spoof. */
  refuseAt: 2,
  spoofAt: 3,
} as const;

/** A strip along a bezel line is the display's border when near-black and even (luma 0..255, small copy). */
export const darkStripLimits = { reach: 6, maxMean: 45, maxSpread: 25 } as const;

export type ScreenThresholds = { -readonly [K in keyof typeof screenThresholds]: number };

export interface ScreenSignals {
  framesMeasured: number;
  moire: number;
  banding: number;
  bezelSides: number;
  darkFrameSides: number;
  glare: number;
  blueCast: number;
  /** Names of the signals at or over their thresholds. */
  strong: string[];
  /** 'none', 'refuse' (strong evidence: an attempt counted) or 'spoof' (overwhelming evidence). */
  verdict: 'none' | 'refuse' | 'spoof';
  /** Time spent measuring (ms, one thread). */
  ms: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Small numeric helpers.

/** In-place iterative radix-2 FFT of (re, im), length a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i += 1) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k += 1) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

const hann = (n: number) => Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));

const medianOf = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function lumaAt(image: RgbImage, x: number, y: number): number {
  const o = (y * image.width + x) * 3;
  return 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** The face box grown by `grow` of its size on every side, clipped to the image: [x0, y0, x1, y1). */
function around(image: RgbImage, box: FaceBox, grow: number): [number, number, number, number] {
  const [x, y, w, h] = box;
  return [
    clamp(Math.floor(x - w * grow), 0, image.width),
    clamp(Math.floor(y - h * grow), 0, image.height),
    clamp(Math.ceil(x + w * (1 + grow)), 0, image.width),
    clamp(Math.ceil(y + h * (1 + grow)), 0, image.height),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Moiré.

const PATCH = 64;
const window64 = hann(PATCH);

/** Power spectrum (PATCH x PATCH, row-major, ky then kx, unshifted) of a windowed luminance patch centred at (cx, cy). */
function patchPower(image: RgbImage, cx: number, cy: number): Float64Array | null {
  const x0 = Math.round(cx - PATCH / 2);
  const y0 = Math.round(cy - PATCH / 2);
  if (x0 < 0 || y0 < 0 || x0 + PATCH > image.width || y0 + PATCH > image.height) return null;
  const re = new Float64Array(PATCH * PATCH);
  const im = new Float64Array(PATCH * PATCH);
  let mean = 0;
  for (let y = 0; y < PATCH; y += 1) for (let x = 0; x < PATCH; x += 1) mean += re[y * PATCH + x] = lumaAt(image, x0 + x, y0 + y);
  mean /= PATCH * PATCH;
  for (let y = 0; y < PATCH; y += 1) for (let x = 0; x < PATCH; x += 1) re[y * PATCH + x] = (re[y * PATCH + x]! - mean) * window64[x]! * window64[y]!;
  const rowRe = new Float64Array(PATCH);
  const rowIm = new Float64Array(PATCH);
  for (let y = 0; y < PATCH; y += 1) {
    for (let x = 0; x < PATCH; x += 1) {
      rowRe[x] = re[y * PATCH + x]!;
      rowIm[x] = 0;
    }
    fft(rowRe, rowIm);
    for (let x = 0; x < PATCH; x += 1) {
      re[y * PATCH + x] = rowRe[x]!;
      im[y * PATCH + x] = rowIm[x]!;
    }
  }
  for (let x = 0; x < PATCH; x += 1) {
    for (let y = 0; y < PATCH; y += 1) {
      rowRe[y] = re[y * PATCH + x]!;
      rowIm[y] = im[y * PATCH + x]!;
    }
    fft(rowRe, rowIm);
    for (let y = 0; y < PATCH; y += 1) re[y * PATCH + x] = rowRe[y]! ** 2 + rowIm[y]! ** 2;
  }
  return re;
}

/** Frequency bins judged for moiré: radius 6-30 of 64, off the axes and off the 8 px coding-block harmonics. */
function moireBins(): Array<{ kx: number; ky: number; ring: number }> {
  const bins: Array<{ kx: number; ky: number; ring: number }> = [];
  const nearBlock = (k: number) => {
    const m = ((k % 8) + 8) % 8;
    return m <= 1 || m >= 7;
  };
  for (let ky = 0; ky <= PATCH / 2; ky += 1) {
    for (let kx = -PATCH / 2 + 1; kx < PATCH / 2; kx += 1) {
      const r = Math.hypot(kx, ky);
      if (r < 6 || r > 30) continue;
      if (Math.abs(kx) <= 1 || ky <= 1) continue;
      if (nearBlock(kx) && nearBlock(ky)) continue;
      bins.push({ kx, ky, ring: Math.round(r) });
    }
  }
  return bins;
}
const MOIRE_BINS = moireBins();

const at = (power: Float64Array, kx: number, ky: number) => power[(((ky % PATCH) + PATCH) % PATCH) * PATCH + (((kx % PATCH) + PATCH) % PATCH)]!;

/**
 * The strongest isolated spectral peak of the averaged power spectrum: its power over the median of its ring, and
 * over the strongest bin around 0.6 of its frequency (a straight edge makes a streak that grows towards the
 * centre; a grating's peak stands alone). The smaller of the two ratios.
 */
export function isolatedPeak2d(power: Float64Array): number {
  const rings = new Map<number, number[]>();
  for (const b of MOIRE_BINS) {
    const list = rings.get(b.ring) ?? [];
    list.push(at(power, b.kx, b.ky));
    rings.set(b.ring, list);
  }
  const ringMedian = new Map([...rings].map(([r, list]) => [r, Math.max(1e-9, medianOf(list))]));
  let best = 0;
  for (const b of MOIRE_BINS) {
    const p = at(power, b.kx, b.ky);
    const overRing = p / ringMedian.get(b.ring)!;
    if (overRing <= best) continue;
    const ix = Math.round(b.kx * 0.6);
    const iy = Math.round(b.ky * 0.6);
    let inner = 1e-9;
    for (let dy = -1; dy <= 1; dy += 1) for (let dx = -1; dx <= 1; dx += 1) inner = Math.max(inner, at(power, ix + dx, iy + dy));
    best = Math.max(best, Math.min(overRing, p / inner));
  }
  return best;
}

/** Moiré on the face: three patches (the face's centre and cheeks) per frame, spectra averaged over all frames. */
export function moireStrength(frames: readonly ScreenFrame[]): number {
  const sum = new Float64Array(PATCH * PATCH);
  let count = 0;
  for (const { image, face } of frames) {
    if (!face) continue;
    const [x, y, w, h] = face;
    const cx = x + w / 2;
    const cy = y + h / 2;
    for (const [px, py] of [
      [cx, cy],
      [cx - 0.22 * w, cy + 0.1 * h],
      [cx + 0.22 * w, cy + 0.1 * h],
    ] as const) {
      const power = patchPower(image, clamp(px, PATCH / 2, image.width - PATCH / 2), clamp(py, PATCH / 2, image.height - PATCH / 2));
      if (!power) continue;
      for (let i = 0; i < sum.length; i += 1) sum[i] = sum[i]! + power[i]!;
      count += 1;
    }
  }
  return count === 0 ? 0 : isolatedPeak2d(sum);
}

// ---------------------------------------------------------------------------------------------------------------
// Refresh banding.

const ROWS = 128;
const windowRows = hann(ROWS);

/** Mean luminance of each row over the columns [x0, x1). */
function rowProfile(image: RgbImage, x0: number, x1: number, y0: number): Float64Array {
  const rows = new Float64Array(ROWS);
  const step = Math.max(1, Math.floor((x1 - x0) / 48));
  for (let r = 0; r < ROWS; r += 1) {
    let sum = 0;
    let n = 0;
    for (let x = x0; x < x1; x += step) {
      sum += lumaAt(image, x, y0 + r);
      n += 1;
    }
    rows[r] = n > 0 ? sum / n : 0;
  }
  return rows;
}

/** Periods 6-43 rows (k 3..21 of 128); the coding blocks' 8 and 16 rows (k 16, 8) left out. */
const BAND_BINS = Array.from({ length: 19 }, (_, i) => i + 3).filter((k) => k !== 8 && k !== 16);

/**
 * Rolling bands on the face: the row profile (the face's central columns, 128 rows about its centre) of the
 * difference of two frames a quarter-second apart, high-passed; per pair, each period's power over the band's
 * median; the score is the strongest period's *smallest* ratio over the pairs (bands of a display are there in
 * every pair, a chance peak of a moving face is not). Rows of the face only: a striped shirt or blinds moving with
 * the person would make periodic differences too.
 */
export function bandingStrength(pairs: ReadonlyArray<readonly [ScreenFrame, ScreenFrame]>): number {
  const ratios: Float64Array[] = [];
  for (const [a, b] of pairs) {
    if (!a.face || a.image.width !== b.image.width || a.image.height !== b.image.height || a.image.height < ROWS) continue;
    const [x, y, w, h] = a.face;
    const x0 = clamp(Math.round(x + 0.2 * w), 0, a.image.width - 1);
    const x1 = clamp(Math.round(x + 0.8 * w), x0 + 1, a.image.width);
    const y0 = clamp(Math.round(y + h / 2 - ROWS / 2), 0, a.image.height - ROWS);
    const pa = rowProfile(a.image, x0, x1, y0);
    const pb = rowProfile(b.image, x0, x1, y0);
    const diff = Float64Array.from({ length: ROWS }, (_, i) => pb[i]! - pa[i]!);
    // High-pass: minus a 15-row moving average (the difference's slow drift: exposure, a moving head).
    const re = new Float64Array(ROWS);
    const im = new Float64Array(ROWS);
    for (let i = 0; i < ROWS; i += 1) {
      let s = 0;
      let n = 0;
      for (let j = Math.max(0, i - 7); j <= Math.min(ROWS - 1, i + 7); j += 1) {
        s += diff[j]!;
        n += 1;
      }
      re[i] = (diff[i]! - s / n) * windowRows[i]!;
    }
    fft(re, im);
    const power = BAND_BINS.map((k) => re[k]! ** 2 + im[k]! ** 2);
    const median = Math.max(1e-9, medianOf(power));
    ratios.push(Float64Array.from(power, (p) => p / median));
  }
  if (ratios.length === 0) return 0;
  let best = 0;
  for (let i = 0; i < BAND_BINS.length; i += 1) best = Math.max(best, Math.min(...ratios.map((r) => r[i]!)));
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Bezel, glare and gamut on a 160 px copy.

export interface Small {
  width: number;
  height: number;
  r: Float64Array;
  g: Float64Array;
  b: Float64Array;
  luma: Float64Array;
  /** Scale from the small copy to the frame. */
  scale: number;
}

export function shrink(image: RgbImage, width = 160): Small {
  const scale = image.width / width;
  const height = Math.max(1, Math.round(image.height / scale));
  const r = new Float64Array(width * height);
  const g = new Float64Array(width * height);
  const b = new Float64Array(width * height);
  const luma = new Float64Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const sy0 = Math.floor(y * scale);
    const sy1 = Math.max(sy0 + 1, Math.min(image.height, Math.floor((y + 1) * scale)));
    for (let x = 0; x < width; x += 1) {
      const sx0 = Math.floor(x * scale);
      const sx1 = Math.max(sx0 + 1, Math.min(image.width, Math.floor((x + 1) * scale)));
      let sr = 0;
      let sg = 0;
      let sb = 0;
      let n = 0;
      for (let sy = sy0; sy < sy1; sy += 1) {
        for (let sx = sx0; sx < sx1; sx += 1) {
          const o = (sy * image.width + sx) * 3;
          sr += image.data[o]!;
          sg += image.data[o + 1]!;
          sb += image.data[o + 2]!;
          n += 1;
        }
      }
      const i = y * width + x;
      r[i] = sr / n;
      g[i] = sg / n;
      b[i] = sb / n;
      luma[i] = 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
    }
  }
  return { width, height, r, g, b, luma, scale };
}

export interface Gradient {
  mag: Float64Array;
  /** Direction of the gradient (radians, 0..π). */
  dir: Float64Array;
}

export function sobel(s: Small): Gradient {
  const { width: w, height: h, luma: l } = s;
  const mag = new Float64Array(w * h);
  const dir = new Float64Array(w * h);
  for (let y = 1; y < h - 1; y += 1) {
    for (let x = 1; x < w - 1; x += 1) {
      const i = y * w + x;
      const nw = l[i - w - 1]!;
      const n = l[i - w]!;
      const ne = l[i - w + 1]!;
      const west = l[i - 1]!;
      const east = l[i + 1]!;
      const sw = l[i + w - 1]!;
      const south = l[i + w]!;
      const se = l[i + w + 1]!;
      const gx = ne + 2 * east + se - nw - 2 * west - sw;
      const gy = sw + 2 * south + se - nw - 2 * n - ne;
      mag[i] = Math.sqrt(gx * gx + gy * gy) / 4;
      let d = Math.atan2(gy, gx);
      if (d < 0) d += Math.PI;
      dir[i] = d;
    }
  }
  return { mag, dir };
}

const BEZEL_EDGE = 14;
const ANGLES = 90;

/**
 * Sides of the face (left, right, above, below) with a long straight edge: a Hough transform of the strong edges of
 * the small copy (each pixel votes only near its own gradient direction), then, for the best line on each side,
 * how much of the stretch beside the face it covers.
 */
export function bezelSides(s: Small, g: Gradient, face: FaceBox): number {
  return bezelLines(s, g, face).length;
}

export interface BezelLine {
  side: 'left' | 'right' | 'above' | 'below';
  /** Hough angle index (of ANGLES over π) and distance of the line on the small copy. */
  a: number;
  rho: number;
  /** The stretch beside the face it was walked over (small-copy pixels along the line). */
  from: number;
  to: number;
}

/** The long straight edges beside the face, one per side at most (see bezelSides). */
export function bezelLines(s: Small, g: Gradient, face: FaceBox): BezelLine[] {
  const { width: w, height: h } = s;
  const fx0 = face[0] / s.scale;
  const fy0 = face[1] / s.scale;
  const fx1 = (face[0] + face[2]) / s.scale;
  const fy1 = (face[1] + face[3]) / s.scale;
  const maxRho = Math.ceil(Math.hypot(w, h));
  const votes = new Int32Array(ANGLES * (2 * maxRho + 1));
  const cos = Float64Array.from({ length: ANGLES }, (_, a) => Math.cos((a * Math.PI) / ANGLES));
  const sin = Float64Array.from({ length: ANGLES }, (_, a) => Math.sin((a * Math.PI) / ANGLES));
  for (let y = 2; y < h - 2; y += 1) {
    for (let x = 2; x < w - 2; x += 1) {
      const i = y * w + x;
      if (g.mag[i]! < BEZEL_EDGE) continue;
      const centre = Math.round((g.dir[i]! * ANGLES) / Math.PI);
      for (let d = -3; d <= 3; d += 1) {
        const a = (((centre + d) % ANGLES) + ANGLES) % ANGLES;
        const rho = Math.round(x * cos[a]! + y * sin[a]!);
        const v = a * (2 * maxRho + 1) + rho + maxRho;
        votes[v] = votes[v]! + 1;
      }
    }
  }
  // Candidate lines per side: near-vertical (normal within 25° of horizontal) left/right of the face, near-horizontal above/below.
  const sides = { left: 0, right: 0, above: 0, below: 0 };
  const best: Record<keyof typeof sides, { a: number; rho: number; v: number } | null> = { left: null, right: null, above: null, below: null };
  const cx = (fx0 + fx1) / 2;
  const cy = (fy0 + fy1) / 2;
  for (let a = 0; a < ANGLES; a += 1) {
    const deg = (a * 180) / ANGLES;
    const vertical = deg <= 25 || deg >= 155;
    const horizontal = deg >= 65 && deg <= 115;
    if (!vertical && !horizontal) continue;
    for (let r = -maxRho; r <= maxRho; r += 1) {
      const v = votes[a * (2 * maxRho + 1) + r + maxRho]!;
      if (v < 12) continue;
      let side: keyof typeof sides;
      if (vertical) {
        // x where the line crosses the face's centre row.
        const x = (r - cy * sin[a]!) / cos[a]!;
        if (x < 3 || x > w - 3) continue;
        if (x < fx0) side = 'left';
        else if (x > fx1) side = 'right';
        else continue;
      } else {
        const y = (r - cx * cos[a]!) / sin[a]!;
        if (y < 3 || y > h - 3) continue;
        if (y < fy0) side = 'above';
        else if (y > fy1) side = 'below';
        else continue;
      }
      if (!best[side] || v > best[side]!.v) best[side] = { a, rho: r, v };
    }
  }
  const lines: BezelLine[] = [];
  for (const side of Object.keys(best) as Array<keyof typeof sides>) {
    const line = best[side];
    if (!line) continue;
    const vertical = side === 'left' || side === 'right';
    // Walk the stretch beside the face (its height for a side line, its width for a top/bottom one), widened by half.
    const from = vertical ? fy0 - 0.25 * (fy1 - fy0) : fx0 - 0.25 * (fx1 - fx0);
    const to = vertical ? fy1 + 0.25 * (fy1 - fy0) : fx1 + 0.25 * (fx1 - fx0);
    let seen = 0;
    let covered = 0;
    for (let t = Math.max(2, Math.floor(from)); t <= Math.min((vertical ? h : w) - 3, Math.ceil(to)); t += 1) {
      const px = vertical ? (line.rho - t * sin[line.a]!) / cos[line.a]! : t;
      const py = vertical ? t : (line.rho - t * cos[line.a]!) / sin[line.a]!;
      const x = Math.round(px);
      const y = Math.round(py);
      if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) continue;
      seen += 1;
      let edge = false;
      for (let d = -1; d <= 1 && !edge; d += 1) {
        const i = vertical ? y * w + x + d : (y + d) * w + x;
        edge = g.mag[i]! >= BEZEL_EDGE;
      }
      if (edge) covered += 1;
    }
    const span = to - from;
    if (seen >= 0.6 * span && covered >= 0.7 * seen) lines.push({ side, a: line.a, rho: line.rho, from, to });
  }
  return lines;
}

/** Share of the face's surroundings (the box grown by its size) in the largest flat near-white blob. */
export function glareShare(s: Small, g: Gradient, face: FaceBox): number {
  const { width: w, height: h } = s;
  const x0 = clamp(Math.floor(face[0] / s.scale - face[2] / s.scale), 0, w);
  const y0 = clamp(Math.floor(face[1] / s.scale - face[3] / s.scale), 0, h);
  const x1 = clamp(Math.ceil((face[0] + 2 * face[2]) / s.scale), 0, w);
  const y1 = clamp(Math.ceil((face[1] + 2 * face[3]) / s.scale), 0, h);
  const area = (x1 - x0) * (y1 - y0);
  if (area <= 0) return 0;
  const flatWhite = (i: number) => Math.min(s.r[i]!, s.g[i]!, s.b[i]!) >= 228 && g.mag[i]! < 6;
  const seen = new Uint8Array(w * h);
  let largest = 0;
  const stack: number[] = [];
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const start = y * w + x;
      if (seen[start] || !flatWhite(start)) continue;
      seen[start] = 1;
      stack.push(start);
      let size = 0;
      while (stack.length) {
        const i = stack.pop()!;
        size += 1;
        const px = i % w;
        const py = (i - px) / w;
        for (const [nx, ny] of [
          [px - 1, py],
          [px + 1, py],
          [px, py - 1],
          [px, py + 1],
        ] as const) {
          if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1) continue;
          const j = ny * w + nx;
          if (!seen[j] && flatWhite(j)) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
      largest = Math.max(largest, size);
    }
  }
  return largest / area;
}

/** Mean (B - R) / luma of the brightest tenth of the pixels around the face (the box grown by half its size). */
export function blueCast(s: Small, face: FaceBox): number {
  const x0 = clamp(Math.floor((face[0] - face[2] / 2) / s.scale), 0, s.width);
  const y0 = clamp(Math.floor((face[1] - face[3] / 2) / s.scale), 0, s.height);
  const x1 = clamp(Math.ceil((face[0] + 1.5 * face[2]) / s.scale), 0, s.width);
  const y1 = clamp(Math.ceil((face[1] + 1.5 * face[3]) / s.scale), 0, s.height);
  const total = (x1 - x0) * (y1 - y0);
  if (total <= 0) return 0;
  // The brightest tenth: a luma histogram gives its lower bound without sorting.
  const histogram = new Int32Array(256);
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const bin = Math.min(255, Math.round(s.luma[y * s.width + x]!));
      histogram[bin] = histogram[bin]! + 1;
    }
  }
  const wanted = Math.max(1, Math.floor(total / 10));
  let bound = 255;
  for (let seen = 0; bound > 0; bound -= 1) {
    seen += histogram[bound]!;
    if (seen >= wanted) break;
  }
  let cast = 0;
  let n = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const i = y * s.width + x;
      if (Math.round(s.luma[i]!) < bound) continue;
      cast += (s.b[i]! - s.r[i]!) / Math.max(1, s.luma[i]!);
      n += 1;
    }
  }
  return n > 0 ? cast / n : 0;
}

// ---------------------------------------------------------------------------------------------------------------

/** Indices of `count` frames with a face spread over the video (each with the frame after it, for banding). */
export function chooseScreenFrames(frames: readonly ScreenFrame[], count: number): number[] {
  const withFace = frames.map((f, i) => (f.face && i + 1 < frames.length ? i : -1)).filter((i) => i >= 0);
  if (withFace.length <= count) return withFace;
  return Array.from({ length: count }, (_, k) => withFace[Math.floor(((k + 0.5) * withFace.length) / count)]!);
}

export function screenVerdict(strong: readonly string[], t: ScreenThresholds = screenThresholds): ScreenSignals['verdict'] {
  return strong.length >= t.spoofAt ? 'spoof' : strong.length >= t.refuseAt ? 'refuse' : 'none';
}

/** The screen-replay evidence of a video's sampled frames (decode.ts, 4 a second) with their face boxes. */
export function screenSignals(frames: readonly ScreenFrame[], t: ScreenThresholds = screenThresholds): ScreenSignals {
  const started = performance.now();
  const chosen = chooseScreenFrames(frames, t.frames);
  const picked = chosen.map((i) => frames[i]!);
  const moire = moireStrength(picked);
  const banding = bandingStrength(chosen.map((i) => [frames[i]!, frames[i + 1]!] as const));
  const sides: number[] = [];
  const darkSides: number[] = [];
  const glare: number[] = [];
  const cast: number[] = [];
  for (const frame of picked) {
    const small = shrink(frame.image);
    const gradient = sobel(small);
    const lines = bezelLines(small, gradient, frame.face!);
    sides.push(lines.length);
    darkSides.push(lines.filter((line) => darkStrip(small, line)).length);
    glare.push(glareShare(small, gradient, frame.face!));
    cast.push(blueCast(small, frame.face!));
  }
  // The typical frame's value (median), so that one odd frame does not decide.
  const signals = {
    moire,
    banding,
    bezelSides: medianOf(sides),
    darkFrameSides: medianOf(darkSides),
    glare: medianOf(glare),
    blueCast: medianOf(cast),
  };
  const strong: string[] = [];
  if (signals.moire >= t.moire) strong.push('moire');
  if (signals.banding >= t.banding) strong.push('banding');
  if (signals.bezelSides >= t.bezelSides) strong.push('bezel');
  if (signals.darkFrameSides >= t.darkFrameSides) strong.push('dark_frame');
  if (signals.glare >= t.glare) strong.push('glare');
  // The display's white point is recorded (blueCast) but not counted: a room's light shifts it more than a screen does.
  return { framesMeasured: picked.length, ...signals, strong, verdict: screenVerdict(strong, t), ms: performance.now() - started };
}

/** Luma (mean and spread) of strips parallel to a bezel line, at offsets -reach..reach along its normal (small copy). */
export function lineProfile(s: Small, line: BezelLine, reach = 8): Array<{ d: number; mean: number; std: number }> {
  const c = Math.cos((line.a * Math.PI) / ANGLES);
  const sn = Math.sin((line.a * Math.PI) / ANGLES);
  const vertical = line.side === 'left' || line.side === 'right';
  const out: Array<{ d: number; mean: number; std: number }> = [];
  for (let d = -reach; d <= reach; d += 1) {
    let sum = 0;
    let sq = 0;
    let n = 0;
    for (let t = Math.floor(line.from); t <= Math.ceil(line.to); t += 1) {
      const px = vertical ? (line.rho - t * sn) / c : t;
      const py = vertical ? t : (line.rho - t * c) / sn;
      const x = Math.round(px + d * c);
      const y = Math.round(py + d * sn);
      if (x < 0 || y < 0 || x >= s.width || y >= s.height) continue;
      const v = s.luma[y * s.width + x]!;
      sum += v;
      sq += v * v;
      n += 1;
    }
    const mean = n > 0 ? sum / n : NaN;
    out.push({ d, mean, std: n > 0 ? Math.sqrt(Math.max(0, sq / n - mean * mean)) : NaN });
  }
  return out;
}

/**
 * Whether a near-black, even strip runs along the line within `reach` pixels of it (either side: the line may be
 * the display's edge or the frame's outer edge): the unlit border of a screen. A doorway, a window frame or a desk
 * edge are lit like the room (measured on 27 real photos: at most 2 of 4 sides dark; docs/decisions.md).
 */
export function darkStrip(s: Small, line: BezelLine, limits = darkStripLimits): boolean {
  return lineProfile(s, line, limits.reach).some((p) => p.mean <= limits.maxMean && p.std <= limits.maxSpread);
}
