import { faceFrameJpeg } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import { DETECT_EVERY, DRIFT_LIMIT, faceAngle, sampleRegion, trackSequence, type CropBox, type TrackerModels } from '../../src/engines/face/tracker.js';
import type { FaceEngine, Point3, RgbImage } from '../../src/engines/face/types.js';

const rgb = async (jpeg: Buffer): Promise<RgbImage> => {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** Models whose "face" is wherever the frame says it is: image.width carries the face's x (a stand-in frame). */
function fakeModels(): TrackerModels & { detections: number; meshes: number } {
  const models = {
    detections: 0,
    meshes: 0,
    minConfidence: 0.35,
    meshInputSize: 192,
    async detect(image: RgbImage): Promise<CropBox[]> {
      models.detections += 1;
      return image.height === 0 ? [] : [{ x: image.width - 50, y: 0, size: 100 }];
    },
    async mesh(image: RgbImage, box: CropBox) {
      models.meshes += 1;
      // The landmarks sit where the face is; confidence falls when the crop misses it.
      const cx = image.width;
      const score = Math.abs(cx - (box.x + box.size / 2)) < box.size / 2 ? 0.9 : 0.1;
      const mesh: Point3[] = Array.from({ length: 468 }, (_, i) => [cx - 30 + (i % 60), 20 + (i % 60), 0]);
      return { score, mesh };
    },
  };
  return models;
}
const frame = (faceX: number, faces = true): RgbImage => ({ data: new Uint8Array(0), width: faceX, height: faces ? 1 : 0 });

describe('fixed-box face tracker (engines/face/tracker.ts)', () => {
  it('runs the detector on the first frame and every DETECT_EVERY-th one while the face stays put, the mesh on every frame', async () => {
    const models = fakeModels();
    const frames = Array.from({ length: 12 }, () => frame(200));
    const result = await trackSequence(models, frames);
    expect(result.map((faces) => faces.length)).toEqual(frames.map(() => 1));
    expect(models.detections).toBe(Math.ceil(12 / DETECT_EVERY));
    expect(models.meshes).toBe(12);
  });

  it('detects again as soon as the face moves away from the box (more than DRIFT_LIMIT of it) or is lost', async () => {
    const models = fakeModels();
    const drift = 100 * DRIFT_LIMIT;
    // Frames 0-1 still, frame 2 moved by twice the drift limit (re-detected), frame 3 still, frame 4 no face.
    const result = await trackSequence(models, [frame(200), frame(200), frame(200 + 2 * drift), frame(200 + 2 * drift), frame(200, false)]);
    expect(models.detections).toBe(3);
    expect(result.map((faces) => faces.length)).toEqual([1, 1, 1, 1, 0]);
    expect(result[2]![0]!.mesh[0]![0]).toBeCloseTo(200 + 2 * drift - 30, 5);
  });

  it('samples a region bilinearly, grey outside the image, averaging when it shrinks', () => {
    const image: RgbImage = { data: new Uint8Array([0, 0, 0, 100, 100, 100, 200, 200, 200, 250, 250, 250]), width: 2, height: 2 };
    // The whole image at its own size: the pixels themselves.
    expect(Array.from(sampleRegion(image, 0, 0, 1, 1, 2, 2, 128))).toEqual([0, 0, 0, 100, 100, 100, 200, 200, 200, 250, 250, 250]);
    // Entirely outside: the fill.
    expect(Array.from(sampleRegion(image, 10, 10, 1, 1, 2, 2, 128))).toEqual(new Array(12).fill(128));
    // Halfway between the two top pixels.
    expect(sampleRegion(image, 0.5, 0, 0, 0, 1, 1, 128)[0]).toBeCloseTo(50, 5);
  });

  it('reads a frontal, level face as no rotation', () => {
    const mesh: Point3[] = Array.from({ length: 468 }, () => [0, 0, 0]);
    mesh[10] = [100, 50, 0];
    mesh[152] = [100, 150, 0];
    mesh[234] = [50, 100, 0];
    mesh[454] = [150, 100, 0];
    const angle = faceAngle(mesh, 150, 192);
    expect(Math.abs(angle.yaw)).toBeLessThan(1e-9);
    expect(Math.abs(angle.pitch)).toBeLessThan(1e-9);
    expect(Math.abs(angle.roll)).toBeLessThan(1e-9);
  });

  describe('with the real models', () => {
    let engine: FaceEngine;
    beforeAll(async () => {
      engine = await createFaceEngine({ workers: 1 });
    }, 60_000);
    afterAll(async () => engine.close());

    it('keeps the landmarks of a still picture exactly still between detections, and finds the face where a lone frame does', async () => {
      const still = await faceFrameJpeg('fa-s6-b').then(rgb);
      const frames = Array.from({ length: 2 * DETECT_EVERY }, () => still);
      const tracked = await engine.track(frames);
      const lone = await engine.analyse(still, 'track');
      expect(tracked).toHaveLength(frames.length);
      for (const analysis of tracked) {
        expect(analysis.faces).toHaveLength(1);
        // The same crop of the same pixels: the same landmarks, to the bit (human's own box cache moved them).
        expect(analysis.faces[0]!.mesh).toEqual(lone.faces[0]!.mesh);
      }
    }, 60_000);

    it('follows a face that moves across the frame', async () => {
      const still = await faceFrameJpeg('fa-s6-b').then(rgb);
      const { width, height } = still;
      // The same picture shifted left by up to 60 px (edge pixels repeated), one shift per frame.
      const shifted = (dx: number): RgbImage => {
        const data = new Uint8Array(still.data.length);
        for (let y = 0; y < height; y += 1) {
          for (let x = 0; x < width; x += 1) {
            const from = (y * width + Math.min(width - 1, x + dx)) * 3;
            data.set(still.data.subarray(from, from + 3), (y * width + x) * 3);
          }
        }
        return { data, width, height };
      };
      const shifts = [0, 10, 20, 30, 40, 50, 60];
      const tracked = await engine.track(shifts.map(shifted));
      const nose = tracked.map((a) => a.faces[0]!.mesh[1]![0]);
      shifts.forEach((dx, i) => expect(Math.abs(nose[i]! - (nose[0]! - dx))).toBeLessThan(6));
    }, 60_000);
  });
});
