import { faceMessages } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { coverThresholds, frameCovered, judgeCover, measureCover, toLab, type CoverMeasures } from '../../src/features/face-video/face-cover.js';
import type { FrameMeasures } from '../../src/features/face-video/frame-measures.js';
import { judgeQuality } from '../../src/features/face-video/quality.js';
import type { FaceObservation, Point3, RgbImage } from '../../src/engines/face/types.js';

/**
 * A drawn face, 200 px square: skin (with a little grain), two dark nostrils under the nose tip, red lips with a
 * dark seam, and the facemesh points the cover measure reads placed on them.
 */
type Rgb = [number, number, number];
const SKIN: Rgb = [200, 150, 130];
const LIP: Rgb = [170, 80, 90];

const POINTS: Record<number, [number, number]> = {
  234: [50, 100],
  454: [150, 100],
  151: [100, 40],
  9: [100, 60],
  108: [85, 45],
  337: [115, 45],
  117: [75, 85],
  346: [125, 85],
  1: [100, 110],
  4: [100, 105],
  2: [100, 117],
  164: [100, 125],
  167: [92, 126],
  393: [108, 126],
  57: [75, 142],
  287: [125, 142],
  205: [70, 120],
  425: [130, 120],
  212: [72, 150],
  432: [128, 150],
  18: [100, 155],
  200: [100, 162],
  199: [100, 168],
  175: [100, 175],
  206: [80, 128],
  426: [120, 128],
  0: [100, 133],
  13: [100, 139],
  37: [92, 134],
  82: [92, 139],
  267: [108, 134],
  312: [108, 139],
  17: [100, 148],
  14: [100, 141],
  84: [92, 147],
  87: [92, 141],
  314: [108, 147],
  317: [108, 141],
  61: [80, 140],
  291: [120, 140],
  152: [100, 180],
};

function face(): FaceObservation {
  const mesh: Point3[] = Array.from({ length: 468 }, () => [100, 100, 0]);
  for (const [index, [x, y]] of Object.entries(POINTS)) mesh[Number(index)] = [x, y, 0];
  return { box: [50, 30, 100, 155], score: 1, mesh, angle: { yaw: 0, pitch: 0, roll: 0 } };
}

interface Drawing {
  /** Paints over the face: return a colour to replace the pixel, or null to keep it. */
  cover?: (x: number, y: number) => Rgb | null;
  /** The jaw dropped: a dark open mouth between the lips. */
  openMouth?: boolean;
  /** Multiplies every channel (coloured light). */
  light?: Rgb;
}

function drawFace({ cover, openMouth, light = [1, 1, 1] }: Drawing = {}): RgbImage {
  const W = 200;
  const data = new Uint8Array(W * W * 3);
  for (let y = 0; y < W; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const grain = ((x * 7 + y * 13) % 5) - 2;
      let c: Rgb = [SKIN[0] + grain, SKIN[1] + grain, SKIN[2] + grain];
      if (Math.hypot(x - 93, y - 114) < 3 || Math.hypot(x - 107, y - 114) < 3) c = [70, 40, 35];
      if (x >= 80 && x <= 120 && y >= 133 && y <= 148) c = LIP;
      if (x >= 82 && x <= 118 && y === 140) c = [60, 25, 30];
      if (openMouth && x >= 86 && x <= 114 && y >= 138 && y <= 143) c = [50, 18, 22];
      c = cover?.(x, y) ?? c;
      const o = (y * W + x) * 3;
      for (let k = 0; k < 3; k += 1) data[o + k] = Math.max(0, Math.min(255, Math.round(c[k]! * light[k]!)));
    }
  }
  return { data, width: W, height: W };
}

/** A mask from the nose bridge (y 98) to under the chin, ear to ear. */
const mask =
  (colour: Rgb, pattern?: (x: number, y: number) => Rgb | null) =>
  (x: number, y: number): Rgb | null =>
    y >= 98 && y <= 190 && x >= 52 && x <= 148 ? (pattern?.(x, y) ?? colour) : null;

const covered = (drawing: Drawing) => frameCovered(measureCover(drawFace(drawing), face())!);

describe('cover measures of one frame', () => {
  it('converts sRGB to CIELAB', () => {
    const white = toLab(255, 255, 255);
    expect(white[0]).toBeCloseTo(100, 0);
    expect(Math.abs(white[1])).toBeLessThan(0.5);
    expect(toLab(0, 0, 0)[0]).toBeCloseTo(0, 0);
    expect(toLab(255, 0, 0)[1]).toBeGreaterThan(70);
    expect(toLab(140, 190, 225)[2]).toBeLessThan(-15);
  });

  it('sees the lips and the mouth of a bare face', () => {
    const c = measureCover(drawFace(), face())!;
    expect(c.foreign).toBe(0);
    expect(c.noseForeign).toBe(0);
    expect(c.lipRedness).toBeGreaterThan(15);
    expect(c.mouthDetail).toBeGreaterThan(0.3);
    expect(frameCovered(c)).toBeNull();
  });

  it('finds light-blue, white, black and patterned masks by their colour', () => {
    for (const colour of [
      [140, 190, 225],
      [238, 238, 233],
      [32, 33, 36],
    ] as Rgb[]) {
      const c = measureCover(drawFace({ cover: mask(colour) }), face())!;
      expect(c.foreign).toBe(1);
      expect(c.noseForeign).toBe(1);
      expect(frameCovered(c)).toBe('colour');
    }
    const plaid = mask([43, 58, 103], (x, y) => (Math.floor(x / 9) % 3 === 0 ? [184, 51, 58] : Math.floor(y / 9) % 2 === 0 ? [120, 120, 140] : null));
    expect(covered({ cover: plaid })).not.toBeNull();
  });

  it('finds a mask of the skin colour by the missing lips and mouth detail', () => {
    const c = measureCover(drawFace({ cover: mask(SKIN) }), face())!;
    expect(c.foreign).toBe(0);
    expect(Math.abs(c.lipRedness)).toBeLessThan(1);
    expect(c.mouthDetail).toBeLessThan(0.05);
    expect(frameCovered(c)).toBe('flat');
  });

  it('leaves a beard, an open mouth and warm light alone', () => {
    const beard = (x: number, y: number): Rgb | null => {
      const lips = x >= 80 && x <= 120 && y >= 133 && y <= 148;
      const hair = ((x * 31 + y * 17) % 7) * 6;
      return !lips && ((y >= 120 && y <= 132 && x >= 70 && x <= 130) || (y >= 149 && y <= 190 && x >= 55 && x <= 145)) ? [55 + hair, 42 + hair, 36 + hair] : null;
    };
    expect(covered({ cover: beard })).toBeNull();
    expect(covered({ openMouth: true })).toBeNull();
    expect(covered({ light: [1.08, 0.93, 0.72] })).toBeNull();
    expect(covered({ light: [0.85, 0.9, 1.15] })).toBeNull();
    // A mask stays a mask under the same light.
    expect(covered({ cover: mask([140, 190, 225]), light: [1.08, 0.93, 0.72] })).toBe('colour');
  });

  it('needs the full mesh and a visible forehead', () => {
    const partial = face();
    partial.mesh = partial.mesh.slice(0, 100);
    expect(measureCover(drawFace(), partial)).toBeUndefined();
    const offImage = face();
    for (const i of [151, 9, 108, 337, 117, 346]) offImage.mesh[i] = [-500, -500, 0];
    expect(measureCover(drawFace(), offImage)).toBeUndefined();
  });
});

describe('cover judgement over frames', () => {
  const bare: CoverMeasures = { foreign: 0.1, noseForeign: 0, lipRedness: 12, mouthDetail: 0.5, skin: [70, 12, 20] };
  const masked: CoverMeasures = { foreign: 1, noseForeign: 1, lipRedness: 0, mouthDetail: 0.15, skin: [70, 12, 20] };

  it("answers 'Se detectó cubrebocas' when most frames look covered", () => {
    const problem = judgeCover([masked, masked, masked, bare]);
    expect(problem?.message).toBe(faceMessages.mask);
    expect(problem?.detail).toContain('3 of 4 frames');
  });

  it('ignores a few covered-looking frames and frames without measures', () => {
    expect(judgeCover([masked, bare, bare, bare, undefined, undefined])).toBeNull();
    expect(judgeCover([])).toBeNull();
    expect(judgeCover([undefined])).toBeNull();
  });

  it('keeps red lips from being taken for a coloured mask (coloured light on the lower face)', () => {
    expect(frameCovered({ ...masked, lipRedness: coverThresholds.colourLipRedness + 4, mouthDetail: 0.6 })).toBeNull();
  });

  it('is judged after the light and sharpness problems, as a recoverable capture problem', () => {
    const frame = (cover: CoverMeasures, luma = 120): FrameMeasures => ({
      timeMs: 0,
      faces: 1,
      frameLuma: 120,
      face: { luma, surroundLuma: 120, clipped: 0, sharpness: 300, mouthOpening: 0, eyeOpening: 0.3, noseX: 0, noseY: 0, size: 0.4, yaw: 0, pitch: 0, roll: 0, cover },
    });
    expect(judgeQuality([frame(masked), frame(masked)])?.message).toBe(faceMessages.mask);
    expect(judgeQuality([frame(bare), frame(bare)])).toBeNull();
    expect(judgeQuality([frame(masked, 20), frame(masked, 20)])?.message).toBe(faceMessages.lowLight);
  });
});
