/**
 * Tracking a face through the frames of a video with the detector on some frames only and facemesh on a fixed box
 * in between (docs/decisions.md, "A fixed-box face tracker"). Human's own detector cache follows the face from the
 * box its landmarks gave on the previous frame, which makes the landmarks of a still picture jitter (each frame's
 * mesh moves the next frame's crop); here the crop stays exactly where the last detection put it until the face
 * has measurably moved away from it, so a still picture gives the same crop, hence the same landmarks, frame after
 * frame. The mesh is human's facemesh graph model, run by this code on a crop sampled from the full-size frame;
 * the box, landmark and head-angle arithmetic follow human 3.3 (src/face/facemesh.ts, facemeshutil.ts, angles.ts).
 */
import type { FaceObservation, Point3, RgbImage } from './types.js';

/** A square crop in the frame's pixels: the detector's box, enlarged and squared as human crops it for the mesh. */
export interface CropBox {
  x: number;
  y: number;
  size: number;
}

/** The detector run on every DETECT_EVERY-th frame of a sequence (and on any frame where the tracked face moved or was lost). */
export const DETECT_EVERY = 4;
/** The face's landmarks moved by more than this share of the crop since the detection: detect again. */
export const DRIFT_LIMIT = 0.08;
/** The landmarks' width changed by more than this share since the detection (the face came closer or went away): detect again. */
export const SCALE_LIMIT = 0.1;

/**
 * Bilinear samples (0..255 floats, RGB, row-major) of the region x, y, width x height of `image`, at outWidth x
 * outHeight; outside the image is `fill`. Sample positions span the region's corners as tf.image.cropAndResize's do;
 * when shrinking, each output pixel is the mean of up to maxSub x maxSub samples over its step.
 */
export function sampleRegion(image: RgbImage, x: number, y: number, width: number, height: number, outWidth: number, outHeight: number, fill: number, maxSub = 4): Float32Array {
  const out = new Float32Array(outWidth * outHeight * 3);
  const { data, width: w, height: h } = image;
  const stepX = outWidth > 1 ? width / (outWidth - 1) : 0;
  const stepY = outHeight > 1 ? height / (outHeight - 1) : 0;
  // Shrinking: each output pixel averages sub x sub bilinear samples spread over its step (less aliasing).
  const sub = Math.max(1, Math.min(maxSub, Math.ceil(Math.max(stepX, stepY) - 1e-9)));
  const weight = 1 / (sub * sub);
  // Per axis, each sample's two source indices (clamped) and their weights, zero for an index outside the image:
  // a sample is fill + the weighted sum of (pixel - fill) over the corners inside the image.
  const axis = (start: number, step: number, count: number, limit: number) => {
    const first = new Int32Array(count * sub);
    const second = new Int32Array(count * sub);
    const wFirst = new Float32Array(count * sub);
    const wSecond = new Float32Array(count * sub);
    for (let k = 0; k < count; k += 1) {
      for (let j = 0; j < sub; j += 1) {
        const v = start + k * step + (sub > 1 ? ((j + 0.5) / sub - 0.5) * step : 0);
        const v0 = Math.floor(v);
        const f = v - v0;
        const n = k * sub + j;
        const inside0 = v0 >= 0 && v0 < limit;
        const inside1 = v0 + 1 >= 0 && v0 + 1 < limit;
        first[n] = inside0 ? v0 : 0;
        second[n] = inside1 ? v0 + 1 : 0;
        wFirst[n] = inside0 ? 1 - f : 0;
        wSecond[n] = inside1 ? f : 0;
      }
    }
    return { first, second, wFirst, wSecond };
  };
  const xs = axis(x, stepX, outWidth, w);
  const ys = axis(y, stepY, outHeight, h);
  const row = new Float32Array(outWidth * 3);
  let at = 0;
  for (let r = 0; r < outHeight; r += 1) {
    row.fill(0);
    for (let j = r * sub; j < (r + 1) * sub; j += 1) {
      const wyA = ys.wFirst[j]!;
      const wyB = ys.wSecond[j]!;
      const rowA = ys.first[j]! * w;
      const rowB = ys.second[j]! * w;
      for (let c = 0, o = 0; c < outWidth; c += 1, o += 3) {
        let sr = 0;
        let sg = 0;
        let sb = 0;
        for (let i = c * sub; i < (c + 1) * sub; i += 1) {
          const wxA = xs.wFirst[i]!;
          const wxB = xs.wSecond[i]!;
          const w00 = wxA * wyA;
          const w10 = wxB * wyA;
          const w01 = wxA * wyB;
          const w11 = wxB * wyB;
          const p00 = (rowA + xs.first[i]!) * 3;
          const p10 = (rowA + xs.second[i]!) * 3;
          const p01 = (rowB + xs.first[i]!) * 3;
          const p11 = (rowB + xs.second[i]!) * 3;
          sr += (data[p00]! - fill) * w00 + (data[p10]! - fill) * w10 + (data[p01]! - fill) * w01 + (data[p11]! - fill) * w11;
          sg += (data[p00 + 1]! - fill) * w00 + (data[p10 + 1]! - fill) * w10 + (data[p01 + 1]! - fill) * w01 + (data[p11 + 1]! - fill) * w11;
          sb += (data[p00 + 2]! - fill) * w00 + (data[p10 + 2]! - fill) * w10 + (data[p01 + 2]! - fill) * w01 + (data[p11 + 2]! - fill) * w11;
        }
        row[o] = row[o]! + sr;
        row[o + 1] = row[o + 1]! + sg;
        row[o + 2] = row[o + 2]! + sb;
      }
    }
    for (let k = 0; k < row.length; k += 1) out[at + k] = fill + row[k]! * weight;
    at += row.length;
  }
  return out;
}

/** Mesh landmarks in the frame from facemesh's raw output (inputSize pixels of the crop), as human's transformRawCoords without rotation. */
export function meshFromRaw(raw: ArrayLike<number>, box: CropBox, inputSize: number): Point3[] {
  const mesh: Point3[] = [];
  const k = box.size / inputSize;
  for (let i = 0; i + 2 < raw.length; i += 3) mesh.push([box.x + raw[i]! * k, box.y + raw[i + 1]! * k, raw[i + 2]!]);
  return mesh;
}

function extent(mesh: readonly Point3[]): { cx: number; cy: number; width: number } {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [x, y] of mesh) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, width: maxX - minX };
}

/**
 * Head rotation from the mesh, human's calculateFaceAngle: axes from the top/bottom (10, 152) and the sides (234,
 * 454) of the face, x and y in units of the box over 1.5 and z as facemesh gives it over its input size.
 */
export function faceAngle(mesh: readonly Point3[], boxSize: number, inputSize: number): { yaw: number; pitch: number; roll: number } {
  if (mesh.length < 300) return { yaw: 0, pitch: 0, roll: 0 };
  const size = boxSize / 1.5;
  const pts = [mesh[10]!, mesh[152]!, mesh[234]!, mesh[454]!].map(([x, y, z]) => [x / size, y / size, z / inputSize] as [number, number, number]);
  const normalize = (v: [number, number, number]): [number, number, number] => {
    const l = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / l, v[1] / l, v[2] / l];
  };
  const sub = (a: number[], b: number[]): [number, number, number] => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
  const cross = (a: number[], b: number[]): [number, number, number] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const yAxis = normalize(sub(pts[1]!, pts[0]!));
  let xAxis = normalize(sub(pts[3]!, pts[2]!));
  const zAxis = normalize(cross(xAxis, yAxis));
  xAxis = cross(yAxis, zAxis);
  const [r00, , , r10, r11, r12, r20, r21, r22] = [...xAxis, ...yAxis, ...zAxis] as number[];
  let thetaX: number;
  let thetaY: number;
  let thetaZ: number;
  if (r10! < 1) {
    if (r10! > -1) {
      thetaZ = Math.atan2(r10!, Math.sqrt(r00! * r00! + r20! * r20!));
      thetaY = Math.atan2(-r20!, r00!);
      thetaX = Math.atan2(-r12!, r11!);
    } else {
      thetaZ = -Math.PI / 2;
      thetaY = -Math.atan2(r21!, r22!);
      thetaX = 0;
    }
  } else {
    thetaZ = Math.PI / 2;
    thetaY = Math.atan2(r21!, r22!);
    thetaX = 0;
  }
  const clean = (v: number) => (Number.isNaN(v) ? 0 : v);
  return { pitch: clean(-thetaX), yaw: clean(-thetaY), roll: clean(-thetaZ) };
}

/** What the tracker needs of the models: the detector's boxes on a frame, and facemesh on a crop. */
export interface TrackerModels {
  /** Square crops (human's enlarged, squared detector boxes) of the faces found in the frame, in its pixels. */
  detect(image: RgbImage): Promise<CropBox[]>;
  /** Facemesh on the crop: its confidence (0..1) and the landmarks in the frame's pixels. */
  mesh(image: RgbImage, box: CropBox): Promise<{ score: number; mesh: Point3[] }>;
  /** Faces whose mesh confidence is not above this are dropped (human: face.detector.minConfidence). */
  minConfidence: number;
  meshInputSize: number;
}

interface Tracked {
  box: CropBox;
  /** Where the landmarks were and how wide when the box was detected. */
  cx: number;
  cy: number;
  width: number;
}

/**
 * Tracks the faces of consecutive frames: the detector on the first frame, every DETECT_EVERY-th frame and
 * whenever a tracked face is lost, moved more than DRIFT_LIMIT of its box or changed size by more than SCALE_LIMIT;
 * facemesh on every frame, on the boxes of the last detection. One sequence at a time (the state is the boxes).
 */
export async function trackSequence(models: TrackerModels, images: readonly RgbImage[]): Promise<FaceObservation[][]> {
  const results: FaceObservation[][] = [];
  let tracked: Tracked[] = [];
  let sinceDetection = Number.POSITIVE_INFINITY;
  const meshAll = async (image: RgbImage, boxes: readonly CropBox[]) => Promise.all(boxes.map(async (box) => ({ box, ...(await models.mesh(image, box)) })));
  for (const image of images) {
    let meshed: Array<{ box: CropBox; score: number; mesh: Point3[] }> = [];
    let detected = false;
    if (sinceDetection + 1 < DETECT_EVERY && tracked.length > 0) {
      meshed = await meshAll(
        image,
        tracked.map((t) => t.box),
      );
      const moved = meshed.some((m, i) => {
        if (m.score <= models.minConfidence) return true;
        const t = tracked[i]!;
        const now = extent(m.mesh);
        return Math.hypot(now.cx - t.cx, now.cy - t.cy) > DRIFT_LIMIT * t.box.size || Math.abs(now.width / t.width - 1) > SCALE_LIMIT;
      });
      if (moved) meshed = [];
      else sinceDetection += 1;
    }
    if (meshed.length === 0) {
      meshed = await meshAll(image, await models.detect(image));
      detected = true;
      sinceDetection = 0;
    }
    const kept = meshed.filter((m) => m.score > models.minConfidence);
    if (detected) {
      tracked = kept.map((m) => {
        const e = extent(m.mesh);
        return { box: m.box, cx: e.cx, cy: e.cy, width: Math.max(1e-6, e.width) };
      });
    }
    results.push(
      kept.map((m) => {
        // Human's box for a meshed face: the crop's size, centred on the landmarks (facemeshutil calculateFaceBox).
        const e = extent(m.mesh);
        return {
          box: [e.cx - m.box.size / 2, e.cy - m.box.size / 2, m.box.size, m.box.size],
          score: Math.round(100 * m.score) / 100,
          mesh: m.mesh,
          angle: faceAngle(m.mesh, m.box.size, models.meshInputSize),
        };
      }),
    );
  }
  return results;
}
