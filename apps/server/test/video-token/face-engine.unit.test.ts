import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { faceFrameJpeg } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import { loadHumanDetector, type HumanDetector } from '../../src/engines/face/human.js';
import { cosine } from '../../src/engines/face/similarity.js';

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

  it('finds one face with its mesh and a normalised 1024-d embedding, and tells two people apart', async () => {
    const [a, b] = await Promise.all([faceFrameJpeg('fa-s6-b').then(rgb), faceFrameJpeg('fa-s3-a').then(rgb)]);
    const first = await detector.analyse(a, 'describe');
    expect(first.faces).toHaveLength(1);
    const face = first.faces[0]!;
    expect(face.mesh).toHaveLength(468);
    expect(face.embedding).toHaveLength(1024);
    expect(Math.hypot(...face.embedding!)).toBeCloseTo(1, 5);
    // The box is in the frame's own pixels (the padding is taken off).
    expect(face.box[0]).toBeGreaterThan(0);
    expect(face.box[0] + face.box[2]).toBeLessThan(a.width);
    const tracked = await detector.analyse(a, 'track');
    expect(tracked.faces[0]!.embedding).toBeUndefined();
    expect(Math.abs(tracked.faces[0]!.box[0] - face.box[0])).toBeLessThan(face.box[2] * 0.1);
    const other = (await detector.analyse(b, 'describe')).faces[0]!;
    expect(cosine(face.embedding!, other.embedding!)).toBeLessThan(0.75);
  }, 60_000);

  it('analyses a frame that is a view into a larger buffer (decoded video) and leaves the caller\'s bytes usable', async () => {
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

  it('refuses to start when a model is missing', async () => {
    const require = createRequire(import.meta.url);
    const models = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'models');
    for (const file of readdirSync(models)) if (!file.startsWith('faceres')) cpSync(path.join(models, file), path.join(broken, file));
    // In a worker thread of its own: human keeps loaded models per thread.
    await expect(createFaceEngine({ workers: 1, modelsDir: broken })).rejects.toThrow(/faceres/);
  }, 60_000);
});
