/**
 * Measures of one sampled frame that need only its pixels and the face landmarks: light on the face, sharpness,
 * mouth and eye openings, head position, whether the lower face is covered (face-cover.ts).
 */
import type { FaceObservation, RgbImage } from '../../engines/face/types.js';
import { measureCover, type CoverMeasures } from './face-cover.js';

export interface FrameMeasures {
  timeMs: number;
  /** Faces found in the frame. */
  faces: number;
  /** Mean luma of the whole frame (0..255). */
  frameLuma: number;
  /** The following only when exactly one face was found. */
  face?: {
    /** Mean luma inside the face box and around it (0..255). */
    luma: number;
    surroundLuma: number;
    /** Share of face pixels at or above 250 (blown out). */
    clipped: number;
    /** Variance of the Laplacian of the face, resampled to 128 px wide. */
    sharpness: number;
    /**
     * Mean of the inner-lip gap (facemesh 13-14) and the outer-lip height (0-17), over the mouth width (61-291).
     * Both grow by the lip gap when the mouth opens. The inner gap alone reads near zero when facemesh takes a dark
     * open mouth for closed lips (thin lips under a moustache), while the outer contour still spans it; see
     * docs/decisions.md.
     */
    mouthOpening: number;
    /** Mean of both eyes' lid gap over eye width. */
    eyeOpening: number;
    /** Nose tip in face widths from the frame centre; face width in frame widths. */
    noseX: number;
    noseY: number;
    size: number;
    yaw: number;
    /**
     * Nose tip's horizontal offset from the middle of the outer eye corners, over their distance: positive when the
     * nose is to the picture's right (a turn to the person's left, the camera not mirrored). Moving the head
     * without turning it leaves it unchanged, unlike noseX.
     */
    noseTurn: number;
    pitch: number;
    roll: number;
    /** Colour and detail of the lower face against the skin above it (a mask, a hand). */
    cover?: CoverMeasures;
  };
}

const lumaAt = (d: Uint8Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function clampRegion(image: RgbImage, box: [number, number, number, number], grow = 0): Region {
  const [x, y, w, h] = box;
  return {
    x0: Math.max(0, Math.floor(x - w * grow)),
    y0: Math.max(0, Math.floor(y - h * grow)),
    x1: Math.min(image.width, Math.ceil(x + w * (1 + grow))),
    y1: Math.min(image.height, Math.ceil(y + h * (1 + grow))),
  };
}

function regionLuma(image: RgbImage, r: Region, exclude?: Region): { mean: number; clipped: number } {
  let sum = 0;
  let n = 0;
  let clipped = 0;
  for (let y = r.y0; y < r.y1; y += 2) {
    for (let x = r.x0; x < r.x1; x += 2) {
      if (exclude && x >= exclude.x0 && x < exclude.x1 && y >= exclude.y0 && y < exclude.y1) continue;
      const v = lumaAt(image.data, (y * image.width + x) * 3);
      sum += v;
      n += 1;
      if (v >= 250) clipped += 1;
    }
  }
  return { mean: n > 0 ? sum / n : 0, clipped: n > 0 ? clipped / n : 0 };
}

/** Variance of the 4-neighbour Laplacian over the region, sampled on a grid 128 cells wide. */
function sharpnessOf(image: RgbImage, r: Region): number {
  const step = Math.max(1, (r.x1 - r.x0) / 128);
  const values: number[] = [];
  const at = (x: number, y: number) => lumaAt(image.data, (Math.round(y) * image.width + Math.round(x)) * 3);
  for (let y = r.y0 + step; y < r.y1 - step; y += step) {
    for (let x = r.x0 + step; x < r.x1 - step; x += step) {
      values.push(4 * at(x, y) - at(x - step, y) - at(x + step, y) - at(x, y - step) - at(x, y + step));
    }
  }
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
}

export function measureFrame(timeMs: number, image: RgbImage, faces: readonly FaceObservation[]): FrameMeasures {
  const whole = regionLuma(image, { x0: 0, y0: 0, x1: image.width, y1: image.height });
  const measures: FrameMeasures = { timeMs, faces: faces.length, frameLuma: whole.mean };
  const face = faces.length === 1 ? faces[0] : undefined;
  if (!face || face.mesh.length < 468) return measures;
  const m = face.mesh;
  const d = (i: number, j: number) => Math.hypot(m[i]![0] - m[j]![0], m[i]![1] - m[j]![1]);
  const inner = clampRegion(image, face.box);
  const around = clampRegion(image, face.box, 0.5);
  const faceLight = regionLuma(image, inner);
  const mouthWidth = d(61, 291);
  const eyeR = d(33, 133);
  const eyeL = d(362, 263);
  measures.face = {
    luma: faceLight.mean,
    surroundLuma: regionLuma(image, around, inner).mean,
    clipped: faceLight.clipped,
    sharpness: sharpnessOf(image, inner),
    mouthOpening: mouthWidth > 0 ? (d(13, 14) + d(0, 17)) / 2 / mouthWidth : 0,
    eyeOpening: eyeR > 0 && eyeL > 0 ? (d(159, 145) / eyeR + d(386, 374) / eyeL) / 2 : 0,
    noseX: (m[1]![0] - image.width / 2) / Math.max(1, face.box[2]),
    noseY: (m[1]![1] - image.height / 2) / Math.max(1, face.box[2]),
    size: face.box[2] / image.width,
    yaw: face.angle.yaw,
    noseTurn: d(33, 263) > 0 ? (m[1]![0] - (m[33]![0] + m[263]![0]) / 2) / d(33, 263) : 0,
    pitch: face.angle.pitch,
    roll: face.angle.roll,
  };
  const cover = measureCover(image, face);
  if (cover) measures.face.cover = cover;
  return measures;
}
