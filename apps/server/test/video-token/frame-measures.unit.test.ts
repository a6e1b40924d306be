import { describe, expect, it } from 'vitest';
import type { FaceObservation, Point3, RgbImage } from '../../src/engines/face/types.js';
import { measureFrame } from '../../src/features/face-video/frame-measures.js';

const W = 320;
const H = 240;

function image(pixel: (x: number, y: number) => number): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y += 1) for (let x = 0; x < W; x += 1) data.fill(pixel(x, y), (y * W + x) * 3, (y * W + x) * 3 + 3);
  return { data, width: W, height: H };
}

/**
 * A face box in the middle with a mesh whose lips are `gap` apart on a 40 px wide mouth, each lip 4 px thick.
 * `innerGap` places the inner-lip points closer than the lips really are (facemesh on a moustache).
 */
function face(gap: number, innerGap = gap): FaceObservation {
  const mesh: Point3[] = Array.from({ length: 468 }, () => [160, 120, 0]);
  mesh[61] = [140, 150, 0];
  mesh[291] = [180, 150, 0];
  mesh[13] = [160, 150 - innerGap / 2, 0];
  mesh[14] = [160, 150 + innerGap / 2, 0];
  mesh[0] = [160, 150 - gap / 2 - 4, 0];
  mesh[17] = [160, 150 + gap / 2 + 4, 0];
  mesh[33] = [130, 100, 0];
  mesh[133] = [150, 100, 0];
  mesh[159] = [140, 97, 0];
  mesh[145] = [140, 103, 0];
  mesh[362] = [170, 100, 0];
  mesh[263] = [190, 100, 0];
  mesh[386] = [180, 97, 0];
  mesh[374] = [180, 103, 0];
  return { box: [110, 70, 100, 110], score: 1, mesh, angle: { yaw: 0.1, pitch: 0, roll: 0 } };
}

const inBox = (x: number, y: number) => x >= 110 && x < 210 && y >= 70 && y < 180;

describe('frame measures', () => {
  it('measures light on the face and around it, and the mouth and eye openings', () => {
    const m = measureFrame(
      250,
      image((x, y) => (inBox(x, y) ? 40 + ((y >> 2) % 2) * 120 : 200)),
      [face(8)],
    );
    expect(m.timeMs).toBe(250);
    expect(m.faces).toBe(1);
    expect(Math.abs(m.face!.luma - 100)).toBeLessThan(3);
    expect(m.face!.surroundLuma).toBeGreaterThan(150);
    // (inner gap 8 + outer height 16) / 2 over 40.
    expect(m.face!.mouthOpening).toBeCloseTo(0.3);
    expect(m.face!.eyeOpening).toBeCloseTo(0.3);
    expect(m.face!.yaw).toBe(0.1);
  });

  it('sees a mouth open by as much when facemesh puts the inner-lip points together', () => {
    const measure = (f: FaceObservation) =>
      measureFrame(
        0,
        image(() => 128),
        [f],
      ).face!.mouthOpening;
    const closed = measure(face(0));
    // Both lip contours follow an opening of 12 px: the measure grows by 12 / 40.
    expect(measure(face(12)) - closed).toBeCloseTo(0.3);
    // Only the outer contour follows it: still half of it, well above mesh jitter (about 0.02 on a still face).
    expect(measure(face(12, 2)) - closed).toBeGreaterThanOrEqual(0.15);
  });

  it('tells a sharp face from a flat one', () => {
    const sharp = measureFrame(
      0,
      image((x, y) => (inBox(x, y) ? (((x >> 1) + (y >> 1)) % 2 ? 30 : 220) : 128)),
      [face(2)],
    );
    const flat = measureFrame(
      0,
      image(() => 128),
      [face(2)],
    );
    expect(sharp.face!.sharpness).toBeGreaterThan(1000);
    expect(flat.face!.sharpness).toBeLessThan(1);
  });

  it('keeps no face measures unless exactly one face is seen', () => {
    expect(
      measureFrame(
        0,
        image(() => 10),
        [],
      ).face,
    ).toBeUndefined();
    const two = measureFrame(
      0,
      image(() => 10),
      [face(2), face(2)],
    );
    expect(two.faces).toBe(2);
    expect(two.face).toBeUndefined();
    expect(
      measureFrame(
        0,
        image(() => 10),
        [],
      ).frameLuma,
    ).toBeCloseTo(10, 0);
  });
});
