import { describe, expect, it } from 'vitest';
import { describeFace, DESCRIPTOR_LENGTH, RECOGNITION_WEIGHT } from '../../src/engines/face/descriptor.js';
import { distribution, equalErrorRate, falseAcceptRate, falseRejectRate, pairScores, rejectsAtFar, separation } from '../../src/engines/face/measure.js';
import { cosine, faceSimilarity } from '../../src/engines/face/similarity.js';

describe('face measurement maths (engines/face/measure.ts)', () => {
  it('pairs same identities as genuine, different ones as impostors, unlabelled faces only against labelled ones', () => {
    const faces = [
      { id: 'a1', identity: 'a', descriptor: [1, 0] },
      { id: 'a2', identity: 'a', descriptor: [0.8, 0.6] },
      { id: 'b1', identity: 'b', descriptor: [0, 1] },
      { id: 'u1', descriptor: [0.6, 0.8] },
      { id: 'u2', descriptor: [-1, 0] },
    ];
    const scores = pairScores(faces, cosine, [[faces[3]!, faces[4]!]]);
    expect(scores.genuine).toEqual([0.8]);
    // a1-b1, a2-b1, and u1, u2 each against a1, a2, b1, plus the explicit u1-u2 pair.
    expect(scores.impostor).toHaveLength(2 + 3 + 3 + 1);
    expect(scores.impostor.at(-1)).toBeCloseTo(-0.6, 10);
  });

  it('counts a score at the threshold as an accept', () => {
    expect(falseAcceptRate([0.5, 0.6, 0.7, 0.8], 0.7)).toBe(0.5);
    expect(falseRejectRate([0.5, 0.6, 0.7, 0.8], 0.7)).toBe(0.5);
    expect(falseAcceptRate([], 0.7)).toBe(0);
  });

  it('gives an equal-error rate of 0 in the middle of the gap when the sets do not overlap', () => {
    const eer = equalErrorRate({ genuine: [0.8, 0.9], impostor: [0.1, 0.6] });
    expect(eer).toEqual({ rate: 0, threshold: 0.7, far: 0, frr: 0 });
  });

  it('finds the equal-error point of overlapping sets', () => {
    // 10 genuine 0.50..0.95, 10 impostor 0.05..0.50 plus two high impostors: at 0.55 one genuine is refused
    // (0.50) and two impostors of twelve (0.9, 0.95) are accepted... the closest point is where FAR ~ FRR.
    const genuine = Array.from({ length: 10 }, (_, i) => 0.5 + i * 0.05);
    const impostor = [...Array.from({ length: 10 }, (_, i) => 0.05 + i * 0.05), 0.62, 0.66];
    const eer = equalErrorRate({ genuine, impostor });
    expect(Math.abs(eer.far - eer.frr)).toBeLessThanOrEqual(0.1);
    expect(eer.rate).toBeGreaterThan(0.05);
    expect(eer.rate).toBeLessThan(0.25);
    expect(eer.threshold).toBeGreaterThan(0.5);
    expect(eer.threshold).toBeLessThanOrEqual(0.7);
  });

  it('puts the threshold for a false-accept target just above the impostors it must refuse, and reports the rejects it costs', () => {
    const genuine = [0.6, 0.7, 0.8, 0.9];
    const impostor = [0.1, 0.2, 0.3, 0.75];
    // With 4 impostors, any accepted one is 25 % > 0.1 %: the threshold must pass the highest (0.75).
    const strict = rejectsAtFar({ genuine, impostor }, 0.001);
    expect(strict.far).toBe(0);
    expect(strict.threshold).toBe(0.8);
    expect(strict.frr).toBe(0.5);
    // At 25 % allowed, the lowest threshold whose FAR is at most 25 % is 0.6 (only 0.75 accepted), no reject.
    expect(rejectsAtFar({ genuine, impostor }, 0.25)).toEqual({ threshold: 0.6, far: 0.25, frr: 0 });
  });

  it('summarises a distribution by nearest-rank quantiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i + 1) / 100);
    expect(distribution(values)).toEqual({ count: 100, min: 0.01, p05: 0.05, median: 0.505, p95: 0.95, max: 1 });
    expect(distribution([]).count).toBe(0);
    const s = separation({ genuine: [0.8, 0.9], impostor: [0.1, 0.85] }, 0.001, 0.85);
    expect(s.atThreshold).toEqual({ threshold: 0.85, far: 0.5, frr: 0.5 });
  });
});

describe('face descriptor ensemble (engines/face/descriptor.ts)', () => {
  it("is unit length and its similarity is the weighted sum of the two models' cosines", () => {
    const faceresA = Array.from({ length: 1024 }, (_, i) => Math.sin(i));
    const faceresB = Array.from({ length: 1024 }, (_, i) => Math.sin(i * 1.3 + 0.2));
    const netA = Array.from({ length: 128 }, (_, i) => Math.cos(i));
    const netB = Array.from({ length: 128 }, (_, i) => Math.cos(i * 0.7 + 1));
    const a = describeFace(faceresA, netA);
    const b = describeFace(faceresB, netB);
    expect(a).toHaveLength(DESCRIPTOR_LENGTH);
    expect(Math.hypot(...a)).toBeCloseTo(1, 10);
    const expected = (1 - RECOGNITION_WEIGHT) * cosine(faceresA, faceresB) + RECOGNITION_WEIGHT * cosine(netA, netB);
    expect(faceSimilarity(a, b)).toBeCloseTo(expected, 10);
    expect(faceSimilarity(a, a)).toBeCloseTo(1, 10);
  });

  it('refuses to compare descriptors of different sizes', () => {
    expect(() => faceSimilarity([1, 0], [1, 0, 0])).toThrow(/differ in size/);
  });
});
