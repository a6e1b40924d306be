/**
 * Compares the faces of two files: a reference image and a probe image or short video. Each image must show one
 * face clearly larger than any other; a video is decoded with ffmpeg, the face tracked in the sampled frames, the
 * sharpest frontal ones described, and the median of their similarities to the reference kept
 * (docs/decisions.md, "Comparing two faces through the API"). Descriptors come from the face engine and are
 * compared only with faceSimilarity. Nothing is stored here.
 */
import sharp from 'sharp';
import { measureFrame } from '../face-video/frame-measures.js';
import { faceSimilarity } from '../../engines/face/similarity.js';
import type { FaceEngine, FaceObservation, RgbImage } from '../../engines/face/types.js';
import { decodeMedia, MediaError, type DecodedMedia, type MediaErrorReason } from '../../engines/media/decode.js';
import { RefusedError, type Reason } from '../../domain/refusal.js';

export type Which = 'reference' | 'probe';

/** A file that cannot be compared: why (a reason of the HTTP layer's table, http/reasons.ts), what is wrong and which file it is. */
export class FaceCompareError extends RefusedError {
  override name = 'FaceCompareError';
  constructor(
    reason: Reason,
    message: string,
    readonly which: Which,
    messageClient?: string,
  ) {
    super(reason, message, messageClient);
  }
}

/** Why a probe video cannot be used, for each way decoding it fails. */
const videoRefusals: Record<MediaErrorReason, Reason> = {
  too_long: 'payload_too_large',
  no_video_stream: 'unsupported_media_type',
  empty: 'invalid_request',
  corrupt: 'invalid_request',
  too_short: 'invalid_request',
  timeout: 'compare_video_timeout',
  ffmpeg_missing: 'compare_decoder_missing',
};

/** Faces at least this share of the largest face's area are "of similar size": whose face to compare is ambiguous. */
export const SIMILAR_FACE_AREA = 0.4;
/** The longest side of an image given to the face engine (larger photos are scaled down: the detector works at 256 px). */
export const MAX_IMAGE_SIDE = 1280;
/** Video sampling: frames a second, at most this many frames tracked, this many of the sharpest frontal ones described. */
export const VIDEO_FPS = 2;
export const MAX_TRACKED_FRAMES = 12;
export const DESCRIBED_FRAMES = 3;
/** A described video frame is cut to a square this many face widths wide around the tracked face (other faces left out). */
export const FRAME_CROP_FACE_WIDTHS = 3;
/** Frames turned further than this (radians, about 35°) are described only when no frontal frame has a face. */
export const MAX_FRONTAL_YAW = 0.6;

const label: Record<Which, string> = { reference: 'reference', probe: 'probe' };
const spanish: Record<Which, string> = { reference: 'la imagen de referencia', probe: 'la imagen a comparar' };

export type DominantFace = { kind: 'none' } | { kind: 'several'; count: number } | { kind: 'one'; face: FaceObservation };

const area = (face: FaceObservation) => face.box[2] * face.box[3];

/** The one face to compare: the largest, unless another face is of similar size. */
export function dominantFace(faces: readonly FaceObservation[]): DominantFace {
  if (faces.length === 0) return { kind: 'none' };
  const sorted = [...faces].sort((a, b) => area(b) - area(a));
  const similar = sorted.filter((face) => area(face) >= SIMILAR_FACE_AREA * area(sorted[0]!)).length;
  return similar > 1 ? { kind: 'several', count: similar } : { kind: 'one', face: sorted[0]! };
}

function noFace(which: Which, what: 'image' | 'video'): FaceCompareError {
  return new FaceCompareError('compare_face_missing', `No face was found in the ${label[which]} ${what} (field ${which})`, which, `No se encontró un rostro en ${spanish[which]}.`);
}

function severalFaces(which: Which, what: 'image' | 'video', count: number): FaceCompareError {
  return new FaceCompareError(
    'compare_faces_several',
    `The ${label[which]} ${what} (field ${which}) shows ${count} faces of similar size: send one person's face`,
    which,
    `Se encontró más de un rostro en ${spanish[which]}.`,
  );
}

/** The image as RGB for the face engine: EXIF orientation applied, alpha dropped, at most MAX_IMAGE_SIDE. */
export async function imageToRgb(buffer: Buffer, which: Which): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(buffer, { failOn: 'error', limitInputPixels: 40_000_000 })
      .rotate()
      .removeAlpha()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw new FaceCompareError('invalid_request', `The ${label[which]} file (field ${which}) is not a readable image`, which);
  }
}

export interface DescribedFace {
  face: FaceObservation;
  embedding: number[];
  width: number;
  height: number;
  /** Videos: when the frame was sampled. */
  frameTimeMs?: number;
}

/** The descriptor of the one face of an image; FaceCompareError when there is none or several. */
export async function describeImage(engine: FaceEngine, image: RgbImage, which: Which): Promise<DescribedFace> {
  const analysis = await engine.analyse(image, 'describe');
  const found = dominantFace(analysis.faces);
  if (found.kind === 'none') throw noFace(which, 'image');
  if (found.kind === 'several') throw severalFaces(which, 'image', found.count);
  if (!found.face.embedding || found.face.embedding.length === 0) {
    throw new FaceCompareError('compare_face_missing', `The face in the ${label[which]} image (field ${which}) could not be described`, which, `No se encontró un rostro en ${spanish[which]}.`);
  }
  return { face: found.face, embedding: found.face.embedding, width: image.width, height: image.height };
}

/** The video's frames, or FaceCompareError with a reason for each way a file is not a usable video. */
export async function decodeProbeVideo(buffer: Buffer): Promise<DecodedMedia> {
  try {
    return await decodeMedia({ buffer }, { fps: VIDEO_FPS, maxSide: 640, maxDurationMs: 30_000, minDurationMs: 0 });
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    throw new FaceCompareError(videoRefusals[error.reason], `The probe video (field probe) cannot be used: ${error.message}`, 'probe');
  }
}

/** The square of `widths` face widths centred on the face box, clamped to the image, as its own RGB image. */
export function cropAroundFace(image: RgbImage, box: readonly [number, number, number, number], widths = FRAME_CROP_FACE_WIDTHS): { image: RgbImage; left: number; top: number } {
  const side = Math.round(Math.max(box[2], box[3]) * widths);
  const cx = box[0] + box[2] / 2;
  const cy = box[1] + box[3] / 2;
  const left = Math.max(0, Math.round(cx - side / 2));
  const top = Math.max(0, Math.round(cy - side / 2));
  const right = Math.min(image.width, left + side);
  const bottom = Math.min(image.height, top + side);
  const width = right - left;
  const height = bottom - top;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const from = ((top + y) * image.width + left) * 3;
    data.set(image.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { image: { data, width, height }, left, top };
}

/** Indices of at most `count` items spread evenly over `length`. */
function spread(length: number, count: number): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: count }, (_, k) => Math.round(((k + 0.5) * length) / count - 0.5));
}

export interface DescribedVideo {
  faces: DescribedFace[];
  sampled: number;
  tracked: number;
  /** Tracked frames that show one clear face. */
  withFace: number;
}

/**
 * The descriptors of the DESCRIBED_FRAMES sharpest frontal frames with one clear face. Tracking (detector and
 * mesh, ~40 ms a frame) picks them; only those are described (~170 ms each).
 */
export async function describeVideo(engine: FaceEngine, media: DecodedMedia): Promise<DescribedVideo> {
  const picked = spread(media.frames.length, MAX_TRACKED_FRAMES).map((i) => media.frames[i]!);
  const tracked = await Promise.all(picked.map((frame) => engine.analyse(frame.image, 'track')));
  let several = 0;
  const candidates: { index: number; sharpness: number; yaw: number; box: FaceObservation['box'] }[] = [];
  tracked.forEach((analysis, index) => {
    const found = dominantFace(analysis.faces);
    if (found.kind === 'several') several = Math.max(several, found.count);
    if (found.kind !== 'one') return;
    const measures = measureFrame(picked[index]!.timeMs, picked[index]!.image, [found.face]).face;
    candidates.push({ index, sharpness: measures?.sharpness ?? 0, yaw: Math.abs(found.face.angle.yaw), box: found.face.box });
  });
  if (candidates.length === 0) throw several > 0 ? severalFaces('probe', 'video', several) : noFace('probe', 'video');
  const frontal = candidates.filter((c) => c.yaw <= MAX_FRONTAL_YAW);
  const chosen = (frontal.length > 0 ? frontal : candidates)
    .sort((a, b) => b.sharpness - a.sharpness)
    .slice(0, DESCRIBED_FRAMES)
    .sort((a, b) => a.index - b.index);
  // Only the tracked face is described: the frame is cut around it (the engine pads what it is given).
  const crops = chosen.map((c) => cropAroundFace(picked[c.index]!.image, c.box));
  const described = await Promise.all(crops.map((crop) => engine.analyse(crop.image, 'describe')));
  const faces: DescribedFace[] = [];
  described.forEach((analysis, k) => {
    const found = dominantFace(analysis.faces);
    if (found.kind !== 'one' || !found.face.embedding?.length) return;
    const frame = picked[chosen[k]!.index]!;
    const { left, top } = crops[k]!;
    const [x, y, w, h] = found.face.box;
    faces.push({ face: { ...found.face, box: [x + left, y + top, w, h] }, embedding: found.face.embedding, width: frame.image.width, height: frame.image.height, frameTimeMs: frame.timeMs });
  });
  if (faces.length === 0) throw noFace('probe', 'video');
  return { faces, sampled: media.frames.length, tracked: picked.length, withFace: candidates.length };
}

export interface Comparison {
  similarity: number;
  /** The probe face whose similarity is the one kept. */
  probe: DescribedFace;
}

/**
 * The similarity of the reference to the probe's faces: for several (video frames) the median, the lower middle
 * one for an even count, so that the face reported is the one that gave the score.
 */
export function compareFaces(reference: DescribedFace, probes: readonly DescribedFace[]): Comparison {
  if (probes.length === 0) throw new Error('compareFaces needs at least one probe face');
  const scored = probes.map((probe) => ({ probe, similarity: faceSimilarity(reference.embedding, probe.embedding) })).sort((a, b) => a.similarity - b.similarity);
  return scored[Math.floor((scored.length - 1) / 2)]!;
}
