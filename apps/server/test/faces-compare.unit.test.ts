import { describe, expect, it } from 'vitest';
import type { FaceObservation } from '../src/engines/face/types.js';
import { compareFaces, cropAroundFace, dominantFace, type DescribedFace } from '../src/features/faces-compare/compare.js';

const face = (w: number, h = w): FaceObservation => ({ box: [0, 0, w, h], score: 0.9, mesh: [], angle: { yaw: 0, pitch: 0, roll: 0 } });
const described = (embedding: number[], t: number): DescribedFace => ({ face: face(10), embedding, width: 100, height: 100, frameTimeMs: t });

describe('dominantFace', () => {
  it('no face, one face, a large face with small ones behind it, and faces of similar size', () => {
    expect(dominantFace([])).toEqual({ kind: 'none' });
    expect(dominantFace([face(100)])).toMatchObject({ kind: 'one', face: { box: [0, 0, 100, 100] } });
    // 60 px is 36 % of the area of 100 px: a bystander, not an ambiguity.
    expect(dominantFace([face(60), face(100), face(30)])).toMatchObject({ kind: 'one', face: { box: [0, 0, 100, 100] } });
    expect(dominantFace([face(70), face(100)])).toEqual({ kind: 'several', count: 2 });
    expect(dominantFace([face(90), face(100), face(95)])).toEqual({ kind: 'several', count: 3 });
  });
});

describe('compareFaces', () => {
  const reference = described([1, 0], 0);
  it('keeps the median similarity of the frames (the lower middle one for an even count) and reports that frame', () => {
    // Similarities: cos of the angle to [1, 0].
    const probes = [described([0, 1], 0), described([1, 0], 500), described([1, 1], 1000)];
    const three = compareFaces(reference, probes);
    expect(three.similarity).toBeCloseTo(Math.SQRT1_2, 6);
    expect(three.probe.frameTimeMs).toBe(1000);
    const two = compareFaces(reference, probes.slice(0, 2));
    expect(two.similarity).toBeCloseTo(0, 6);
    expect(two.probe.frameTimeMs).toBe(0);
    expect(compareFaces(reference, [probes[1]!]).similarity).toBeCloseTo(1, 6);
  });
  it('refuses no probe', () => {
    expect(() => compareFaces(reference, [])).toThrow(/at least one/);
  });
});

describe('cropAroundFace', () => {
  it('cuts a square of three face widths around the face, clamped to the image, keeping the pixels', () => {
    const width = 100;
    const height = 80;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data.set([x, y, 7], (y * width + x) * 3);
    const { image, left, top } = cropAroundFace({ data, width, height }, [40, 30, 10, 10]);
    expect({ left, top, width: image.width, height: image.height }).toEqual({ left: 30, top: 20, width: 30, height: 30 });
    expect(Array.from(image.data.subarray(0, 3))).toEqual([30, 20, 7]);
    const last = (image.height * image.width - 1) * 3;
    expect(Array.from(image.data.subarray(last, last + 3))).toEqual([59, 49, 7]);
    const edge = cropAroundFace({ data, width, height }, [85, 0, 20, 20]);
    expect({ left: edge.left, top: edge.top, width: edge.image.width, height: edge.image.height }).toEqual({ left: 65, top: 0, width: 35, height: 60 });
  });
});
