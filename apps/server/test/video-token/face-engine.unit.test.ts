import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { faceFrameJpeg } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import { detectorPadding, DETECTOR_ASPECT, loadHumanDetector, type HumanDetector } from '../../src/engines/face/human.js';
import { grantorParamDefaults } from '@kyc/contracts';
import { DESCRIPTOR_LENGTH } from '../../src/engines/face/descriptor.js';
import { faceSimilarity } from '../../src/engines/face/similarity.js';
import type { FaceObservation } from '../../src/engines/face/types.js';

const rgb = async (jpeg: Buffer) => {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

describe('face engine (human on WASM, offline)', () => {
  let detector: HumanDetector;
  const broken = mkdtempSync(path.join(tmpdir(), 'kyc-models-'));
  beforeAll(async () => {
    detector = await loadHumanDetector();
  }, 60_000);
  afterAll(() => rmSync(broken, { recursive: true, force: true }));

  it('finds one face with its mesh and a unit-length descriptor (faceres + 128-d), and tells two people apart at the default threshold', async () => {
    const [a, b] = await Promise.all([faceFrameJpeg('fa-s6-b').then(rgb), faceFrameJpeg('fa-s3-a').then(rgb)]);
    const first = await detector.analyse(a, 'describe');
    expect(first.faces).toHaveLength(1);
    const face = first.faces[0]!;
    expect(face.mesh).toHaveLength(468);
    expect(face.embedding).toHaveLength(DESCRIPTOR_LENGTH);
    expect(Math.hypot(...face.embedding!)).toBeCloseTo(1, 5);
    // The box is in the frame's own pixels (the padding is taken off).
    expect(face.box[0]).toBeGreaterThan(0);
    expect(face.box[0] + face.box[2]).toBeLessThan(a.width);
    const tracked = await detector.analyse(a, 'track');
    expect(tracked.faces[0]!.embedding).toBeUndefined();
    expect(Math.abs(tracked.faces[0]!.box[0] - face.box[0])).toBeLessThan(face.box[2] * 0.1);
    const other = (await detector.analyse(b, 'describe')).faces[0]!;
    expect(faceSimilarity(face.embedding!, other.embedding!)).toBeLessThan(Number(grantorParamDefaults.UMBRAL_ROSTRO));
  }, 60_000);

  it("analyses a frame that is a view into a larger buffer (decoded video) and leaves the caller's bytes usable", async () => {
    const frame = await faceFrameJpeg('fa-s6-b').then(rgb);
    // Three frames back to back in one buffer, as the video decoder hands them out; the middle one is analysed.
    const all = new Uint8Array(frame.data.length * 3);
    all.set(frame.data, frame.data.length);
    const view = { data: new Uint8Array(all.buffer, frame.data.length, frame.data.length), width: frame.width, height: frame.height };
    const engine = await createFaceEngine({ workers: 1 });
    try {
      const [viaWorker, direct] = await Promise.all([engine.analyse(view, 'track'), detector.analyse(frame, 'track')]);
      expect(viaWorker.faces).toHaveLength(1);
      expect(viaWorker.faces[0]!.box[0]).toBeCloseTo(direct.faces[0]!.box[0], 3);
      expect(all.byteLength).toBe(frame.data.length * 3);
      expect(Buffer.from(view.data).equals(Buffer.from(frame.data))).toBe(true);
    } finally {
      await engine.close();
    }
  }, 60_000);

  it("describes a face the same in a 4:3, a 16:9 and a portrait frame (the detector input is square, not the camera's shape)", async () => {
    const jpeg = await faceFrameJpeg('fa-s6-b');
    const { width, height } = await sharp(jpeg).metadata();
    expect(width! / height!).toBeCloseTo(4 / 3, 2);
    const wide = Math.round((width! * 9) / 16);
    const tall = Math.round((height! * 3) / 4);
    const [landscape, sixteenNine, portrait] = await Promise.all([
      rgb(jpeg),
      rgb(
        await sharp(jpeg)
          .extract({ left: 0, top: Math.round((height! - wide) / 2), width: width!, height: wide })
          .toBuffer(),
      ),
      rgb(
        await sharp(jpeg)
          .extract({ left: Math.round((width! - tall) / 2), top: 0, width: tall, height: height! })
          .toBuffer(),
      ),
    ]);
    const [a, b, c] = (await Promise.all([landscape, sixteenNine, portrait].map((image) => detector.analyse(image, 'describe')))).map((r) => {
      expect(r.faces).toHaveLength(1);
      return r.faces[0]!;
    }) as [FaceObservation, FaceObservation, FaceObservation];
    // Before the square input, the 16:9 crop's box was ~30% too large and its embedding scored 0.66 against the ID.
    expect(faceSimilarity(a.embedding!, b.embedding!)).toBeGreaterThan(0.9);
    expect(faceSimilarity(a.embedding!, c.embedding!)).toBeGreaterThan(0.9);
    expect(b.box[2] / a.box[2]).toBeGreaterThan(0.9);
    expect(b.box[2] / a.box[2]).toBeLessThan(1.1);
  }, 60_000);

  it('pads every input to the shape of its mode with at least the margin on each side, centred', () => {
    expect(DETECTOR_ASPECT).toEqual({ describe: 1, track: 4 / 3 });
    expect(detectorPadding(400, 300, 4 / 3)).toEqual({ paddedWidth: 600, paddedHeight: 450, dx: 100, dy: 75 });
    expect(detectorPadding(640, 360, 1)).toEqual({ paddedWidth: 960, paddedHeight: 960, dx: 160, dy: 300 });
    expect(detectorPadding(640, 360, 4 / 3)).toEqual({ paddedWidth: 960, paddedHeight: 720, dx: 160, dy: 180 });
    expect(detectorPadding(300, 400, 4 / 3)).toEqual({ paddedWidth: 800, paddedHeight: 600, dx: 250, dy: 100 });
  });

  it("refuses to start when the face recognition net (face-api's model files) is missing", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'kyc-recognition-'));
    try {
      // In a worker thread of its own: human keeps loaded models per thread.
      await expect(createFaceEngine({ workers: 1, recognitionModelsDir: empty })).rejects.toThrow(/face_recognition_model/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses to start when a model is missing', async () => {
    const require = createRequire(import.meta.url);
    const models = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
    for (const file of readdirSync(models)) if (!file.startsWith('faceres')) cpSync(path.join(models, file), path.join(broken, file));
    // In a worker thread of its own: human keeps loaded models per thread.
    await expect(createFaceEngine({ workers: 1, modelsDir: broken })).rejects.toThrow(/faceres/);
  }, 60_000);
});
