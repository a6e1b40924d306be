import { describe, expect, it } from 'vitest';
import { chooseDescribedFrames } from '../../src/features/face-video/analyse.js';
import type { FrameMeasures } from '../../src/features/face-video/frame-measures.js';

const frame = (i: number, face?: { sharpness: number; yaw?: number; pitch?: number; mouthOpening?: number }): FrameMeasures => ({
  timeMs: i * 250,
  faces: face ? 1 : 0,
  frameLuma: 120,
  ...(face
    ? {
        face: {
          luma: 120,
          surroundLuma: 110,
          clipped: 0,
          sharpness: face.sharpness,
          mouthOpening: face.mouthOpening ?? 0.05,
          eyeOpening: 0.3,
          noseX: 0,
          noseY: 0,
          size: 0.3,
          yaw: face.yaw ?? 0,
          pitch: face.pitch ?? 0,
          roll: 0,
        },
      }
    : {}),
});

describe('frames described for the face match (chooseDescribedFrames)', () => {
  it('takes one frame from each stretch of the one-face frames: the sharp, frontal, mouth-closed one', () => {
    const frames = [
      frame(0, { sharpness: 100 }),
      frame(1, { sharpness: 300 }),
      frame(2, { sharpness: 100 }),
      frame(3),
      frame(4, { sharpness: 300, yaw: 0.5 }),
      frame(5, { sharpness: 200 }),
      frame(6, { sharpness: 100 }),
      frame(7, { sharpness: 300, mouthOpening: 0.4 }),
      frame(8, { sharpness: 150 }),
    ];
    // One-face frames: 0 1 2 4 5 6 7 8 → stretches [0 1 2 4] and [5 6 7 8].
    expect(chooseDescribedFrames(frames, 2)).toEqual([1, 5]);
  });

  it('returns every one-face frame when there are no more than asked for, and none without a face', () => {
    expect(chooseDescribedFrames([frame(0, { sharpness: 10 }), frame(1), frame(2, { sharpness: 20 })], 4)).toEqual([0, 2]);
    expect(chooseDescribedFrames([frame(0), frame(1)], 4)).toEqual([]);
  });
});
