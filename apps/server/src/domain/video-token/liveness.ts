/**
 * Liveness from this very challenge (pure; unit-tested on synthetic series). Passive scores (human's antispoof
 * and liveness models) do not flag a video made from a still photo, so the decision rests on active evidence:
 * the mouth opening and closing while the digits are shown, speech in the sound at those times, the two moving
 * together, and natural motion (head, blinks). Replays are recognised by their frames: a frozen picture, or a
 * clip played in a loop (frames repeating far apart in time).
 */
import type { FrameMeasures } from './frame-measures.js';

export interface ChallengeWindow {
  /** When the first digit is shown, from the start of the recording, and when speech may end. */
  startMs: number;
  endMs: number;
  /** One slot per digit: [start, end] ms. */
  slots: Array<[number, number]>;
}

/** Spec §4 tick timing: digits one per second from about 2 s after the recording starts. */
export function challengeWindow(digits = 4, firstDigitMs = 2000, stepMs = 1000, answerMs = 1500): ChallengeWindow {
  const slots: Array<[number, number]> = Array.from({ length: digits }, (_, i) => [firstDigitMs + i * stepMs, firstDigitMs + (i + 1) * stepMs + 300]);
  return { startMs: firstDigitMs, endMs: firstDigitMs + (digits - 1) * stepMs + answerMs, slots };
}

/** Every frame of the recording as a tiny grey picture (decode.ts ThumbnailTrack). */
export interface FrameThumbnails {
  timesMs: readonly number[];
  frames: readonly Uint8Array[];
}

/** Mean absolute difference of two thumbnails (grey levels). */
export function thumbDistance(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

export interface AudioEnvelope {
  stepMs: number;
  rms: readonly number[];
}

export const livenessThresholds = {
  /** Consecutive frames closer than this (grey levels, 16x12 thumbnails) are the same picture... */
  identicalFrame: 0.35,
  /**
   * ...and a video whose frames are nearly all the same picture, with landmarks that move no more than the
   * compression makes them jitter (measured on 14 generated stills: mouth range up to 0.021, head 0.003), is a still.
   */
  frozenShare: 0.9,
  stillMouthRange: 0.04,
  stillHeadMotion: 0.006,
  /** A frame repeats when a frame at least `loopMinGapMs` away is this close... */
  repeatDistance: 0.6,
  /** ...and closer than this fraction of the typical distance between neighbouring frames. */
  repeatRatio: 0.35,
  loopMinGapMs: 700,
  /** Share of frames that repeat, making the video a loop. */
  loopShare: 0.3,
  /**
   * Mouth opening (frame-measures.ts): spread in the window (90th - 10th percentile) and peaks above the resting
   * level. Measured on the 16 generated live videos (docs/decisions.md, issue #4): spread 0.105-0.391 while the
   * digits are read, 0.011-0.068 over the same faces' silent stretches (head moving, blinks), up to 0.021 on stills;
   * second-highest peak 0.119-0.374 reading vs at most 0.048 silent. The spread alone barely separates; the peaks do.
   */
  mouthRange: 0.06,
  mouthPeakAbove: 0.05,
  mouthPeaks: 2,
  /** Speech: 20 ms windows louder than max(floor * ratio, minimum) in at least half the digit slots. */
  speechMinRms: 0.01,
  speechFloorRatio: 4,
  speechSlotShare: 0.08,
  speechSlots: 2,
  /** Correlation of mouth opening with loudness at the frames' times. */
  sync: 0.2,
  /** Head motion: spread of the nose position (face widths) or of yaw/pitch (radians). */
  headMotion: 0.01,
  headTurn: 0.01,
  /** A blink: eye opening below this fraction of its median. */
  blinkRatio: 0.82,
} as const;

export type LivenessThresholds = { -readonly [K in keyof typeof livenessThresholds]: number };

export interface LivenessSignals {
  frames: number;
  faceFrames: number;
  identicalShare: number;
  repeatShare: number;
  frozen: boolean;
  looped: boolean;
  mouthRange: number;
  mouthPeaks: number;
  mouthActive: boolean;
  speechSlots: number;
  speechActive: boolean;
  /** Null when there is no sound or no mouth series. */
  sync: number | null;
  synced: boolean;
  headMotion: number;
  blinks: number;
  naturalMotion: boolean;
}

export type LivenessVerdict =
  | { kind: 'live' }
  /** A replayed picture or clip: the attempts run out at once (spec §8 'Spoof detected'). */
  | { kind: 'spoof'; reason: 'frozen' | 'looped' | 'voice_over_still_face' }
  /** No proof of life in this recording (no reading aloud seen or heard): an attempt is counted. */
  | { kind: 'not_shown'; reason: string };

const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
};

const median = (values: readonly number[]) => quantile(values, 0.5);

const std = (values: readonly number[]): number => {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
};

export function pearson(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length || a.length < 4) return null;
  const ma = a.reduce((s, v) => s + v, 0) / a.length;
  const mb = b.reduce((s, v) => s + v, 0) / b.length;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i += 1) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : null;
}

/** Mean loudness over [from, to) ms. */
export function loudness(audio: AudioEnvelope, fromMs: number, toMs: number): number {
  const a = Math.max(0, Math.floor(fromMs / audio.stepMs));
  const b = Math.min(audio.rms.length, Math.ceil(toMs / audio.stepMs));
  if (b <= a) return 0;
  let sum = 0;
  for (let i = a; i < b; i += 1) sum += audio.rms[i]!;
  return sum / (b - a);
}

/** Local maxima of a series that stand `above` the resting level. */
function peaks(values: readonly number[], rest: number, above: number): number {
  let count = 0;
  let armed = true;
  for (const v of values) {
    if (armed && v >= rest + above) {
      count += 1;
      armed = false;
    } else if (!armed && v < rest + above / 2) {
      armed = true;
    }
  }
  return count;
}

export function livenessSignals(
  frames: readonly FrameMeasures[],
  thumbs: FrameThumbnails,
  audio: AudioEnvelope | null,
  window: ChallengeWindow,
  t: LivenessThresholds = livenessThresholds,
): LivenessSignals {
  // Replays: identical neighbours (a still picture) or repeats far apart (a loop), over every frame of the file.
  const neighbour: number[] = [];
  for (let i = 1; i < thumbs.frames.length; i += 1) neighbour.push(thumbDistance(thumbs.frames[i - 1]!, thumbs.frames[i]!));
  const identicalShare = neighbour.length > 0 ? neighbour.filter((d) => d < t.identicalFrame).length / neighbour.length : 0;
  const moving = neighbour.filter((d) => d >= t.identicalFrame);
  const typical = median(moving.length > 0 ? moving : neighbour);
  let repeats = 0;
  for (let i = 0; i < thumbs.frames.length; i += 1) {
    let nearest = Infinity;
    for (let j = 0; j < thumbs.frames.length; j += 1) {
      if (Math.abs(thumbs.timesMs[j]! - thumbs.timesMs[i]!) < t.loopMinGapMs) continue;
      nearest = Math.min(nearest, thumbDistance(thumbs.frames[i]!, thumbs.frames[j]!));
      if (nearest === 0) break;
    }
    if (nearest < t.repeatDistance && nearest < typical * t.repeatRatio) repeats += 1;
  }
  const repeatShare = thumbs.frames.length > 0 ? repeats / thumbs.frames.length : 0;

  // The mouth while the digits are shown.
  const withFace = frames.filter((f) => f.face);
  const mouth = withFace.map((f) => f.face!.mouthOpening);
  const rest = quantile(mouth, 0.25);
  const inWindow = withFace.filter((f) => f.timeMs >= window.startMs && f.timeMs <= window.endMs);
  const windowMouth = inWindow.map((f) => f.face!.mouthOpening);
  const mouthRange = quantile(windowMouth, 0.9) - quantile(windowMouth, 0.1);
  const mouthPeaks = peaks(windowMouth, rest, t.mouthPeakAbove);
  const mouthActive = mouthRange >= t.mouthRange && mouthPeaks >= t.mouthPeaks;

  // Speech in the digit slots, above the recording's own noise floor.
  let speechSlots = 0;
  let sync: number | null = null;
  if (audio && audio.rms.length > 0) {
    const floor = quantile(audio.rms, 0.2);
    const loud = Math.max(t.speechMinRms, floor * t.speechFloorRatio);
    for (const [from, to] of window.slots) {
      const a = Math.max(0, Math.floor(from / audio.stepMs));
      const b = Math.min(audio.rms.length, Math.ceil(to / audio.stepMs));
      if (b <= a) continue;
      let n = 0;
      for (let i = a; i < b; i += 1) if (audio.rms[i]! >= loud) n += 1;
      if (n / (b - a) >= t.speechSlotShare) speechSlots += 1;
    }
    const level = inWindow.map((f) => loudness(audio, f.timeMs - 125, f.timeMs + 125));
    sync = pearson(windowMouth, level);
  }
  const speechActive = speechSlots >= t.speechSlots;
  const synced = sync !== null && sync >= t.sync;

  // Natural motion: the head moves a little, the eyes blink.
  const headMotion = Math.max(
    std(withFace.map((f) => f.face!.noseX)),
    std(withFace.map((f) => f.face!.noseY)),
  );
  const headTurn = Math.max(std(withFace.map((f) => f.face!.yaw)), std(withFace.map((f) => f.face!.pitch)));
  const eyes = withFace.map((f) => f.face!.eyeOpening);
  const eyeMedian = median(eyes);
  let blinks = 0;
  let closed = false;
  for (const e of eyes) {
    const isClosed = eyeMedian > 0 && e < eyeMedian * t.blinkRatio;
    if (isClosed && !closed) blinks += 1;
    closed = isClosed;
  }
  const naturalMotion = headMotion >= t.headMotion || headTurn >= t.headTurn || blinks > 0;

  const still = mouthRange < t.stillMouthRange && Math.max(headMotion, headTurn) < t.stillHeadMotion && blinks === 0;
  const frozen = neighbour.length >= 3 && identicalShare >= t.frozenShare && still;
  const looped = !frozen && repeatShare >= t.loopShare;

  return {
    frames: frames.length,
    faceFrames: withFace.length,
    identicalShare,
    repeatShare,
    frozen,
    looped,
    mouthRange,
    mouthPeaks,
    mouthActive,
    speechSlots,
    speechActive,
    sync,
    synced,
    headMotion: Math.max(headMotion, headTurn),
    blinks,
    naturalMotion,
  };
}

export function judgeLiveness(s: LivenessSignals): LivenessVerdict {
  if (s.frozen) return { kind: 'spoof', reason: 'frozen' };
  if (s.looped) return { kind: 'spoof', reason: 'looped' };
  // Someone reads the code while the face in front of the camera stays rigid: a photo held up.
  if (s.speechActive && !s.mouthActive && !s.naturalMotion) return { kind: 'spoof', reason: 'voice_over_still_face' };
  if (!s.mouthActive) return { kind: 'not_shown', reason: 'the mouth did not move while the digits were shown' };
  if (!s.speechActive) return { kind: 'not_shown', reason: 'no speech was heard while the digits were shown' };
  if (!s.synced) return { kind: 'not_shown', reason: 'the mouth and the voice did not move together' };
  if (!s.naturalMotion) return { kind: 'not_shown', reason: 'no head motion or blink was seen' };
  return { kind: 'live' };
}
