/**
 * Capture problems the user fixes by recording again (docs/flow.md §8 face step messages, recoverable): no face, several
 * faces, too dark, bad light (backlight or blown out), blurred, a mask (face-cover.ts). Pure: judged on the
 * frames' measures.
 */
import { faceMessages } from '@kyc/contracts';
import { judgeCover } from './face-cover.js';
import type { FrameMeasures } from './frame-measures.js';

export const qualityThresholds = {
  /** Share of frames that must show exactly one face. */
  faceShare: 0.5,
  /** Share of frames with several faces that makes it "several faces". */
  multipleShare: 0.3,
  /** Face (or, without a face, frame) darker than this (mean luma). */
  dark: 45,
  /** Face darker than this fraction of its surroundings: backlight. */
  backlight: 0.45,
  /** Share of blown-out face pixels. */
  clipped: 0.25,
  /** Variance of the Laplacian of the face at 128 px (sharp faces are in the hundreds). */
  blur: 12,
} as const;

export type QualityProblem = { message: string; detail: string };

const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export function judgeQuality(frames: readonly FrameMeasures[], t = qualityThresholds): QualityProblem | null {
  if (frames.length === 0) return { message: faceMessages.noFace, detail: 'the video has no frames' };
  const one = frames.filter((f) => f.face);
  const several = frames.filter((f) => f.faces > 1);
  if (several.length / frames.length >= t.multipleShare) {
    return { message: faceMessages.multipleFaces, detail: `several faces in ${several.length} of ${frames.length} frames` };
  }
  if (one.length / frames.length < t.faceShare) {
    const frameLuma = median(frames.map((f) => f.frameLuma));
    if (frameLuma < t.dark) return { message: faceMessages.lowLight, detail: `no face found and the picture is dark (luma ${frameLuma.toFixed(0)})` };
    return { message: faceMessages.noFace, detail: `one face in only ${one.length} of ${frames.length} frames` };
  }
  const luma = median(one.map((f) => f.face!.luma));
  const surround = median(one.map((f) => f.face!.surroundLuma));
  const clipped = median(one.map((f) => f.face!.clipped));
  const sharpness = median(one.map((f) => f.face!.sharpness));
  if (luma < t.dark) return { message: faceMessages.lowLight, detail: `the face is dark (luma ${luma.toFixed(0)})` };
  if (luma < surround * t.backlight) {
    return { message: faceMessages.badLight, detail: `backlight: face luma ${luma.toFixed(0)} against ${surround.toFixed(0)} around it` };
  }
  if (clipped >= t.clipped) return { message: faceMessages.badLight, detail: `${(clipped * 100).toFixed(0)}% of the face is blown out` };
  if (sharpness < t.blur) return { message: faceMessages.blurry, detail: `the face is blurred (sharpness ${sharpness.toFixed(1)})` };
  return judgeCover(one.map((f) => f.face!.cover));
}
