/**
 * Is the lower face covered (a mask, a hand)? The face engine has no mask model, and facemesh goes on placing
 * lips and a chin under a mask, so the evidence is the pixels at those landmarks, compared with the skin of the
 * same face above the mask line (forehead, cheekbones):
 * - a mask's colour differs from that skin over the nose tip, around the mouth and on the chin (a beard darkens
 *   the chin and lip but never the nose tip; coloured light shifts forehead and mouth alike);
 * - lips are redder than the skin around them, and a mouth shows dark detail (the lip seam, an open mouth,
 *   nostrils); a mask or a hand of the skin's colour shows neither.
 * Pure: `measureCover` measures one frame, `judgeCover` decides over the frames (like quality.ts).
 */
import { faceMessages } from '@kyc/contracts';
import type { FaceObservation, RgbImage } from '../../engines/face/types.js';

/** Facemesh points sampled. */
const POINTS = {
  /** Skin above any mask line: mid-forehead, between the brows, forehead sides, cheekbones under the eyes. */
  skin: [151, 9, 108, 337, 117, 346],
  /** The nose tip and just under it: a mask covers them, a beard or a hand on the mouth does not. */
  nose: [1, 4, 2],
  /** Around the mouth and on the chin: under the nose, beside the mouth corners, the cheeks, the chin. */
  lower: [164, 167, 393, 57, 287, 205, 425, 212, 432, 18, 200, 199, 175],
  /** Lip skin around the lips. */
  lipSkin: [164, 200, 206, 426],
} as const;
/** The middle of each lip: halfway between its outer and inner contour points. */
const LIP_BODY: ReadonlyArray<readonly [number, number]> = [
  [0, 13],
  [37, 82],
  [267, 312],
  [17, 14],
  [84, 87],
  [314, 317],
];

export interface CoverMeasures {
  /** Share of the lower-face points whose colour is not the forehead's skin. */
  foreign: number;
  /** Share of the nose points whose colour is not the skin's. */
  noseForeign: number;
  /** Lips' redness over the skin around them (CIELAB a*, the skin's a* subtracted). */
  lipRedness: number;
  /** Dark detail around the mouth: (median - 5th percentile) / median of the luma from the nose tip to the chin. */
  mouthDetail: number;
  /** The reference skin's lightness and chroma (CIELAB L*, a*, b*). */
  skin: [number, number, number];
}

type Lab = [number, number, number];

const linear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => linear(v));
const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);

/** sRGB (0..255) to CIELAB (D65). */
export function toLab(r: number, g: number, b: number): Lab {
  const R = LINEAR[Math.round(r)]!;
  const G = LINEAR[Math.round(g)]!;
  const B = LINEAR[Math.round(b)]!;
  const x = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
  const y = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
  const z = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** Mean colour (Lab) of the square of side 2r+1 around a point; null outside the image. */
function patch(image: RgbImage, x: number, y: number, r: number): Lab | null {
  const x0 = Math.max(0, Math.round(x - r));
  const x1 = Math.min(image.width - 1, Math.round(x + r));
  const y0 = Math.max(0, Math.round(y - r));
  const y1 = Math.min(image.height - 1, Math.round(y + r));
  if (x1 < x0 || y1 < y0) return null;
  // About 5 samples a side are enough for a mean colour.
  const stride = Math.max(1, Math.floor(r / 2));
  let sr = 0;
  let sg = 0;
  let sb = 0;
  let n = 0;
  for (let yy = y0; yy <= y1; yy += stride) {
    for (let xx = x0; xx <= x1; xx += stride) {
      const o = (yy * image.width + xx) * 3;
      sr += image.data[o]!;
      sg += image.data[o + 1]!;
      sb += image.data[o + 2]!;
      n += 1;
    }
  }
  return toLab(sr / n, sg / n, sb / n);
}

const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const coverThresholds = {
  /** A point is not skin when its chroma is this far from the skin's (a*b* distance)... */
  chroma: 14,
  /** ...or when it is this much darker than the skin (L* ratio: black cloth; a beard is caught by the nose rule). */
  dark: 0.45,
  /** ...or when it is this much lighter and greyer (a white mask; C* of the point under this share of the skin's). */
  light: 1.15,
  grey: 0.45,
  /**
   * Frame judged covered by colour: most of the lower face foreign, every nose point too, no red lips and no open
   * mouth (a face under strongly coloured light can have a foreign-looking lower face, never lips the colour of a
   * mask; an open mouth lowers the lips' redness but shows a dark cavity).
   */
  foreignShare: 0.65,
  noseShare: 0.99,
  colourLipRedness: 6,
  colourMouthDetail: 0.5,
  /** Frame judged covered when no lips nor mouth detail show: lips at most this redder than the skin... */
  lipRedness: 3,
  /** ...and the mouth region this flat (measured: masks 0.07-0.18, bare faces with the mouth closed 0.25 and up). */
  mouthDetail: 0.21,
  /** Share of the frames with one face that must look covered. */
  frameShare: 0.5,
} as const;

function isForeign(point: Lab, skin: Lab, t = coverThresholds): boolean {
  const chroma = Math.hypot(point[1] - skin[1], point[2] - skin[2]);
  if (chroma > t.chroma) return true;
  if (point[0] < skin[0] * t.dark) return true;
  const pointC = Math.hypot(point[1], point[2]);
  const skinC = Math.hypot(skin[1], skin[2]);
  return point[0] > skin[0] * t.light && pointC < skinC * t.grey;
}

/** The cover measures of the one face of a frame (facemesh's 468 points), or undefined without a full mesh. */
export function measureCover(image: RgbImage, face: FaceObservation): CoverMeasures | undefined {
  const m = face.mesh;
  if (m.length < 468) return undefined;
  const faceWidth = Math.hypot(m[454]![0] - m[234]![0], m[454]![1] - m[234]![1]);
  const r = Math.max(1, Math.round(faceWidth * 0.025));
  const at = (i: number) => patch(image, m[i]![0], m[i]![1], r);
  const labs = (indices: readonly number[]) => indices.map(at).filter((v): v is Lab => v !== null);

  const skinPatches = labs(POINTS.skin);
  if (skinPatches.length < 3) return undefined;
  const skin: Lab = [median(skinPatches.map((p) => p[0])), median(skinPatches.map((p) => p[1])), median(skinPatches.map((p) => p[2]))];
  const lower = labs(POINTS.lower);
  const nose = labs(POINTS.nose);
  const share = (points: Lab[]) => (points.length ? points.filter((p) => isForeign(p, skin)).length / points.length : 0);

  const lipBody = LIP_BODY.map(([a, b]) => patch(image, (m[a]![0] + m[b]![0]) / 2, (m[a]![1] + m[b]![1]) / 2, Math.max(1, Math.round(r / 2)))).filter((v): v is Lab => v !== null);
  const lipSkin = labs(POINTS.lipSkin);
  const lipRedness = lipBody.length && lipSkin.length ? median(lipBody.map((p) => p[1])) - median(lipSkin.map((p) => p[1])) : 0;

  // Lightness over the box between the mouth corners, from the nose tip to halfway between the lower lip and the
  // chin: nostrils, the lip seam or an open mouth are there, and no hair or background.
  const left = Math.min(m[61]![0], m[291]![0]);
  const right = Math.max(m[61]![0], m[291]![0]);
  const top = m[1]![1];
  const bottom = (m[17]![1] + m[152]![1]) / 2;
  const step = Math.max(1, Math.round(faceWidth / 70));
  // A histogram of the luma: its median and 5th percentile without sorting.
  const histogram = new Uint32Array(256);
  let count = 0;
  for (let y = Math.max(0, Math.round(top)); y < Math.min(image.height, Math.round(bottom)); y += step) {
    for (let x = Math.max(0, Math.round(left)); x < Math.min(image.width, Math.round(right)); x += step) {
      const o = (y * image.width + x) * 3;
      histogram[Math.round(0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!)]! += 1;
      count += 1;
    }
  }
  const percentile = (q: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v += 1) {
      seen += histogram[v]!;
      if (seen > q * count) return v;
    }
    return 255;
  };
  const mid = count > 0 ? percentile(0.5) : 0;
  const low = count > 0 ? percentile(0.05) : 0;

  return {
    foreign: share(lower),
    noseForeign: share(nose),
    lipRedness,
    mouthDetail: mid > 0 ? (mid - low) / mid : 0,
    skin,
  };
}

/** Whether one frame's measures look like a covered lower face, and by which rule. */
export function frameCovered(c: CoverMeasures, t = coverThresholds): 'colour' | 'flat' | null {
  if (c.foreign >= t.foreignShare && c.noseForeign >= t.noseShare && c.lipRedness < t.colourLipRedness && c.mouthDetail < t.colourMouthDetail) return 'colour';
  if (c.lipRedness <= t.lipRedness && c.mouthDetail <= t.mouthDetail) return 'flat';
  return null;
}

export type CoverProblem = { message: string; detail: string };

/** 'Se detectó cubrebocas' when most frames with one face show a covered lower face. */
export function judgeCover(frames: ReadonlyArray<CoverMeasures | undefined>, t = coverThresholds): CoverProblem | null {
  const measured = frames.filter((c): c is CoverMeasures => c !== undefined);
  if (measured.length === 0) return null;
  const verdicts = measured.map((c) => frameCovered(c, t));
  const covered = verdicts.filter((v) => v !== null).length;
  if (covered / measured.length < t.frameShare) return null;
  const byColour = verdicts.filter((v) => v === 'colour').length;
  return {
    message: faceMessages.mask,
    detail: `the lower face looks covered in ${covered} of ${measured.length} frames (${byColour} by colour, ${covered - byColour} without lips or mouth detail)`,
  };
}
