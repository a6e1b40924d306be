/**
 * Liveness from this very challenge (pure; unit-tested on synthetic series). Passive scores (human's antispoof
 * and liveness models) do not flag a video made from a still photo, so the decision rests on active evidence:
 * the mouth opening and closing while the digits are shown, speech in the sound at those times, the two moving
 * together, and natural motion (head, blinks); and the reading must follow this code's random digit schedule
 * (schedule.ts): each digit answered after it appears, the answers' delays alike, nothing said in between, so a
 * replayed talking video or another session's reading fails without any speech recognition. Replays are also
 * recognised by their frames: a frozen picture, or a clip played in a loop (frames repeating far apart in time).
 */
import type { FrameMeasures } from './frame-measures.js';
import { promptRanges, readingStopMs, specSchedule, type ChallengeSchedule, type MotionPrompt } from './schedule.js';
import type { ScreenSignals } from './screen-replay.js';

export interface ChallengeWindow {
  /** When the first digit is shown, from the start of the recording, and when speech may end. */
  startMs: number;
  endMs: number;
  /** One slot per digit: [start, end] ms. */
  slots: Array<[number, number]>;
  /** When each digit appears and when the recording stops: the schedule the answers must follow. */
  digitsMs: number[];
  /** When the digits' part ends (the first motion prompt, or the recording's stop). */
  stopMs: number;
  /** Head turns asked after the digits (schedule.ts), none by default. */
  prompts: MotionPrompt[];
}

/** The window of a digit schedule (schedule.ts); the spec's fixed timing when none is given. */
export function challengeWindow(schedule: ChallengeSchedule = specSchedule(), answerMs = 1500): ChallengeWindow {
  const { digitsMs } = schedule;
  const last = digitsMs[digitsMs.length - 1]!;
  const slots = digitsMs.map((at, i): [number, number] => [at, (digitsMs[i + 1] ?? last + 1000) + 300]);
  return { startMs: digitsMs[0]!, endMs: last + answerMs, slots, digitsMs: [...digitsMs], stopMs: readingStopMs(schedule), prompts: (schedule.prompts ?? []).map((p) => ({ ...p })) };
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
  /**
   * The schedule (docs/decisions.md "Randomised digit schedule"). Utterances are runs of loud 20 ms windows, runs
   * closer than `utteranceGapMs` joined (the stop inside "cuatro"), shorter than `utteranceMinMs` dropped (clicks).
   */
  utteranceGapMs: 120,
  utteranceMinMs: 60,
  /** Each digit's answer starts this long after it appears: no one reads a digit before seeing it... */
  answerLatencyMinMs: 150,
  /** ...nor, counting a slow reader and the real-time path's delay, later than this. */
  answerLatencyMaxMs: 1400,
  /** The answers' latencies agree within this (max - min): the reading follows this schedule, not another. */
  latencySpreadMs: 350,
  /** One digit said: at most this long (a word, slowly). */
  answerMaxMs: 1000,
  /** Speech that answers no digit (before the first one, in the gaps): at most this much (a cough, a breath). */
  strayMaxMs: 300,
  /** Quiet expected this long before the first digit appears. */
  restBeforeFirstMs: 1000,
  /** Answers whose mouth opening is not seen (a frame lost to blur or light) tolerated. */
  mouthMissedAnswers: 1,
  /** Frames (4 a second) with the mouth open outside every answer, from the rest before the first digit to the stop. */
  mouthStrayFrames: 2,
  /** A gap also rests when its lowest frame, not open, came this share of the way back from its answers' opening to rest. */
  gapDipShare: 0.5,
  /**
   * A head turn asked by a motion prompt (docs/decisions.md "Head-turn prompts that tell an asked turn from natural
   * motion"), on the nose's offset from the eyes' middle (frame-measures.ts noseTurn) against its median while the
   * digits were read: in the second-largest frame from `promptReactionMs` after the prompt to its end, it moves
   * towards the asked side at least `promptTurn` (eye-corner distances; a real head turned 20-30° reads ~0.15-0.3)
   * and at least `promptSwayRatio` times the head's own sway while reading (the second-largest distance from that
   * median), measured on at least `promptReadingFrames` frames...
   */
  promptTurn: 0.12,
  promptSwayRatio: 2,
  promptReadingFrames: 8,
  promptReactionMs: 300,
  /**
   * ...having been at rest (less than half that turn towards the asked side) from `promptRestMs` before the prompt
   * to the reaction time, not turned the other way as far before it, and back (at least halfway from its furthest
   * frame) before the prompt ends.
   */
  promptRestMs: 250,
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
  /** The schedule check (scheduleSignals). */
  schedule: ScheduleSignals;
  /** The head turns asked (promptSignals); empty or absent when none were. */
  prompts?: PromptSignal[];
  /** Evidence of a screen held up to the camera (screen-replay.ts), when measured. */
  screen?: ScreenSignals;
}

export interface Utterance {
  onMs: number;
  offMs: number;
}

export interface ScheduleSignals {
  /** Digits answered by an utterance starting in time after they appeared. */
  answered: number;
  digits: number;
  /** Onset of each answer after its digit appeared (ms), for the answered ones. */
  latenciesMs: number[];
  /** The answers themselves (ms from the recording's start): the reading's print (reading-print.ts). */
  answers: Utterance[];
  latencySpreadMs: number;
  longestAnswerMs: number;
  /** Speech answering no digit between the rest before the first digit and the stop. */
  strayMs: number;
  /** Answers with the mouth seen opening, and gaps between answers with it seen resting (of those with a frame). */
  mouthOpened: number;
  mouthRested: number;
  gapsSeen: number;
  /** Frames with the mouth open while no answer is heard (talking to another sound track). */
  mouthStrayFrames: number;
  followed: boolean;
  /** Why not followed ('' when followed). */
  detail: string;
}

export type LivenessVerdict =
  | { kind: 'live' }
  /** A replayed picture or clip: the attempts run out at once (docs/flow.md §8 'Spoof detected'). */
  | { kind: 'spoof'; reason: 'frozen' | 'looped' | 'voice_over_still_face' | 'screen_replay' }
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

/** The utterances of a recording: runs of windows at least `loud`, close runs joined, clicks dropped. */
export function utterances(audio: AudioEnvelope, loud: number, t: LivenessThresholds = livenessThresholds): Utterance[] {
  const runs: Utterance[] = [];
  let start = -1;
  for (let i = 0; i <= audio.rms.length; i += 1) {
    const on = i < audio.rms.length && audio.rms[i]! >= loud;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      runs.push({ onMs: start * audio.stepMs, offMs: i * audio.stepMs });
      start = -1;
    }
  }
  const joined: Utterance[] = [];
  for (const run of runs) {
    const last = joined[joined.length - 1];
    if (last && run.onMs - last.offMs < t.utteranceGapMs) last.offMs = run.offMs;
    else joined.push({ ...run });
  }
  return joined.filter((u) => u.offMs - u.onMs >= t.utteranceMinMs);
}

const overlap = (u: Utterance, from: number, to: number) => Math.max(0, Math.min(u.offMs, to) - Math.max(u.onMs, from));

/**
 * Does the reading follow the schedule? Each digit needs its own utterance starting `answerLatencyMinMs` to
 * `answerLatencyMaxMs` after it appeared, the answers' latencies must agree (a reading made for other times drifts
 * from them), each answer is a word, not talk, and nothing else is said from shortly before the first digit to the
 * stop. The mouth must open with the answers and rest between them. Pure.
 */
export function scheduleSignals(
  speech: readonly Utterance[],
  mouthFrames: ReadonlyArray<{ timeMs: number; opening: number }>,
  mouthRest: number,
  window: ChallengeWindow,
  t: LivenessThresholds = livenessThresholds,
): ScheduleSignals {
  const digits = window.digitsMs.length;
  const answers: Utterance[] = [];
  const used = new Set<Utterance>();
  let after = -Infinity;
  for (const at of window.digitsMs) {
    const answer = speech.find((u) => u.onMs >= after && u.onMs >= at + t.answerLatencyMinMs && u.onMs <= at + t.answerLatencyMaxMs);
    if (!answer) break;
    answers.push(answer);
    used.add(answer);
    after = answer.offMs;
  }
  const latenciesMs = answers.map((u, i) => u.onMs - window.digitsMs[i]!);
  const latencySpreadMs = latenciesMs.length > 0 ? Math.max(...latenciesMs) - Math.min(...latenciesMs) : 0;
  const longestAnswerMs = Math.max(0, ...answers.map((u) => u.offMs - u.onMs));
  const from = Math.max(0, window.digitsMs[0]! - t.restBeforeFirstMs);
  const strayMs = speech.filter((u) => !used.has(u)).reduce((sum, u) => sum + overlap(u, from, window.stopMs), 0);

  const openAbove = mouthRest + t.mouthPeakAbove;
  const framesIn = (a: number, b: number) => mouthFrames.filter((f) => f.timeMs >= a && f.timeMs <= b);
  // A gap rests when its lowest frame is as closed as the mouth was while the person waited for the first digit
  // (the highest of those frames: the measure's own jitter on this face and this head motion), never stricter than
  // half the open margin and never looser than the open threshold (docs/decisions.md "Genuine refusals").
  const waiting = framesIn(0, window.digitsMs[0]! + t.answerLatencyMinMs).map((f) => f.opening);
  const restBelow = Math.min(openAbove, Math.max(mouthRest + t.mouthPeakAbove / 2, ...waiting));
  const mouthOpened = answers.filter((u) => framesIn(u.onMs - 150, u.offMs + 250).some((f) => f.opening >= openAbove)).length;
  // Or, below the open threshold, when it came at least `gapDipShare` of the way back from the lower of its two answers'
  // openings to the resting level: a mouth that closes between words in a short gap (two frames at 4 a second) but
  // whose closed shape reads a hair above the waiting frames (docs/decisions.md "The rest between answers in short gaps").
  const answerPeak = (u: Utterance) => Math.max(-Infinity, ...framesIn(u.onMs - 150, u.offMs + 250).map((f) => f.opening));
  let mouthRested = 0;
  let gapsSeen = 0;
  for (let i = 1; i < answers.length; i += 1) {
    const gap = framesIn(answers[i - 1]!.offMs + 60, answers[i]!.onMs);
    if (gap.length === 0) continue;
    gapsSeen += 1;
    const lowest = Math.min(...gap.map((f) => f.opening));
    const dippedTo = mouthRest + t.gapDipShare * (Math.min(answerPeak(answers[i - 1]!), answerPeak(answers[i]!)) - mouthRest);
    if (lowest < openAbove && (lowest <= restBelow || lowest <= dippedTo)) mouthRested += 1;
  }

  const answering = (timeMs: number) => answers.some((u) => timeMs >= u.onMs - 150 && timeMs <= u.offMs + 250);
  const mouthStrayFrames = mouthFrames.filter((f) => f.timeMs >= from && f.timeMs <= window.stopMs && f.opening >= openAbove && !answering(f.timeMs)).length;

  let detail = '';
  if (answers.length < digits) detail = `digit ${answers.length + 1} of ${digits} was not answered after it appeared`;
  else if (latencySpreadMs > t.latencySpreadMs) detail = `the answers did not follow the digits' times (latencies ${latenciesMs.join(', ')} ms)`;
  else if (longestAnswerMs > t.answerMaxMs) detail = `speech ran on through the digits (an answer of ${longestAnswerMs} ms)`;
  else if (strayMs > t.strayMaxMs) detail = `speech outside the digits' answers (${strayMs} ms)`;
  else if (mouthOpened < digits - t.mouthMissedAnswers) detail = `the mouth opened with ${mouthOpened} of ${digits} answers`;
  else if (gapsSeen > 0 && mouthRested * 2 < gapsSeen) detail = `the mouth did not rest between the answers (${mouthRested} of ${gapsSeen} gaps)`;
  else if (mouthStrayFrames > t.mouthStrayFrames) detail = `the mouth moved while no answer was heard (${mouthStrayFrames} frames)`;
  return {
    answered: answers.length,
    digits,
    latenciesMs,
    answers: answers.map((u) => ({ onMs: u.onMs, offMs: u.offMs })),
    latencySpreadMs,
    longestAnswerMs,
    strayMs,
    mouthOpened,
    mouthRested,
    gapsSeen,
    mouthStrayFrames,
    followed: detail === '',
    detail,
  };
}

export interface PromptSignal {
  motion: MotionPrompt['motion'];
  atMs: number;
  /** Frames with a face measured while it was shown. */
  frames: number;
  /** How far the nose moved towards the asked side (eye-corner distances; negative: the other way). */
  shift: number;
  /** The turn needed: `promptTurn`, or more for a head that swayed more while reading. */
  needed: number;
  done: boolean;
  /** Why not done ('' when done). */
  detail: string;
}

/** The head's level and sway while the digits were read (before the first prompt): median and second-largest distance. */
function readingPose(frames: ReadonlyArray<{ timeMs: number; noseTurn: number }>, untilMs: number): { level: number; sway: number; count: number } {
  const reading = frames.filter((f) => f.timeMs < untilMs).map((f) => f.noseTurn);
  const level = median(reading);
  const distances = reading.map((v) => Math.abs(v - level)).sort((a, b) => b - a);
  return { level, sway: distances[1] ?? distances[0] ?? 0, count: reading.length };
}

/** Whether one asked turn was made, from the shifts towards its side (sign applied) of the frames around it. */
function judgeTurn(shifts: ReadonlyArray<{ timeMs: number; shift: number }>, prompt: MotionPrompt, needed: number, t: LivenessThresholds): Pick<PromptSignal, 'frames' | 'shift' | 'done' | 'detail'> {
  const endMs = prompt.atMs + promptRanges.promptMs;
  const shown = shifts.filter((f) => f.timeMs >= prompt.atMs + t.promptReactionMs && f.timeMs <= endMs);
  const ranked = shown.map((f) => f.shift).sort((a, b) => b - a);
  const shift = ranked.length >= 2 ? ranked[1]! : 0;
  const result = (detail: string) => ({ frames: shown.length, shift, done: detail === '', detail });
  if (shown.length < 2) return result('too few frames with a face');
  if (shift < needed) return result('not turned far enough towards the asked side');
  const peak = shown.reduce((best, f) => (f.shift > best.shift ? f : best));
  const before = shifts.filter((f) => f.timeMs >= prompt.atMs - t.promptRestMs && f.timeMs < prompt.atMs + t.promptReactionMs);
  if (before.some((f) => f.shift >= needed / 2)) return result('already turned when the prompt appeared');
  if (shown.some((f) => f.timeMs < peak.timeMs && -f.shift >= needed)) return result('turned the other way first');
  if (!shown.some((f) => f.timeMs > peak.timeMs && f.shift <= peak.shift / 2)) return result('did not turn back');
  return result('');
}

/**
 * Whether each asked head turn was made: the nose's offset from the eyes' middle, against its median while the
 * digits were read, moves out towards the asked side after the prompt appears and a reaction time, further than the
 * floor and than twice the head's own sway while reading, from rest and back within the prompt's time, not the
 * other way first. A turn to the person's left moves the nose to the picture's right (noseTurn grows): the
 * recording is not mirrored. Too short a reading to know the head's sway refuses every prompt.
 */
export function promptSignals(frames: ReadonlyArray<{ timeMs: number; noseTurn: number }>, prompts: readonly MotionPrompt[], t: LivenessThresholds = livenessThresholds): PromptSignal[] {
  if (prompts.length === 0) return [];
  const pose = readingPose(frames, prompts[0]!.atMs);
  const needed = Math.max(t.promptTurn, t.promptSwayRatio * pose.sway);
  return prompts.map((prompt) => {
    const sign = prompt.motion === 'left' ? 1 : -1;
    const shifts = frames.map((f) => ({ timeMs: f.timeMs, shift: sign * (f.noseTurn - pose.level) }));
    const turn = judgeTurn(shifts, prompt, needed, t);
    const signal = { motion: prompt.motion, atMs: prompt.atMs, needed, ...turn };
    if (pose.count < t.promptReadingFrames) return { ...signal, done: false, detail: `too few frames with a face while reading (${pose.count})` };
    return signal;
  });
}

export interface ReplaySignals {
  /** Pairs of neighbouring frames compared. */
  neighbours: number;
  identicalShare: number;
  repeatShare: number;
}

/** Whether the frames are one picture or repeat far apart (they do not depend on the schedule: computed once). */
export function replaySignals(thumbs: FrameThumbnails, t: LivenessThresholds = livenessThresholds): ReplaySignals {
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

  return { neighbours: neighbour.length, identicalShare, repeatShare };
}

export function livenessSignals(
  frames: readonly FrameMeasures[],
  thumbs: FrameThumbnails,
  audio: AudioEnvelope | null,
  window: ChallengeWindow,
  t: LivenessThresholds = livenessThresholds,
  replay?: ReplaySignals,
): LivenessSignals {
  // Replays: identical neighbours (a still picture) or repeats far apart (a loop), over every frame of the file.
  const { neighbours, identicalShare, repeatShare } = replay ?? replaySignals(thumbs, t);

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
  let speech: Utterance[] = [];
  if (audio && audio.rms.length > 0) {
    const floor = quantile(audio.rms, 0.2);
    const loud = Math.max(t.speechMinRms, floor * t.speechFloorRatio);
    speech = utterances(audio, loud, t);
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
  const headMotion = Math.max(std(withFace.map((f) => f.face!.noseX)), std(withFace.map((f) => f.face!.noseY)));
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
  const frozen = neighbours >= 3 && identicalShare >= t.frozenShare && still;
  const looped = !frozen && repeatShare >= t.loopShare;
  const schedule = scheduleSignals(
    speech,
    withFace.filter((f) => window.prompts.length === 0 || f.timeMs < window.stopMs).map((f) => ({ timeMs: f.timeMs, opening: f.face!.mouthOpening })),
    rest,
    window,
    t,
  );
  const prompts = promptSignals(
    withFace.map((f) => ({ timeMs: f.timeMs, noseTurn: f.face!.noseTurn })),
    window.prompts,
    t,
  );

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
    schedule,
    prompts,
  };
}

export function judgeLiveness(s: LivenessSignals): LivenessVerdict {
  if (s.frozen) return { kind: 'spoof', reason: 'frozen' };
  if (s.looped) return { kind: 'spoof', reason: 'looped' };
  // A screen in front of the camera: overwhelming evidence (three signals) is a spoof; strong evidence (two)
  // refuses with one attempt counted, as a false screen would otherwise lock a real customer out for an hour.
  if (s.screen?.verdict === 'spoof') return { kind: 'spoof', reason: 'screen_replay' };
  if (s.screen?.verdict === 'refuse') return { kind: 'not_shown', reason: `the face was seen on a screen (${s.screen.strong.join(', ')})` };
  // Someone reads the code while the face in front of the camera stays rigid: a photo held up.
  if (s.speechActive && !s.mouthActive && !s.naturalMotion) return { kind: 'spoof', reason: 'voice_over_still_face' };
  if (!s.mouthActive) return { kind: 'not_shown', reason: 'the mouth did not move while the digits were shown' };
  if (!s.speechActive) return { kind: 'not_shown', reason: 'no speech was heard while the digits were shown' };
  if (!s.schedule.followed) return { kind: 'not_shown', reason: `the reading did not follow the digits' schedule: ${s.schedule.detail}` };
  const missed = s.prompts?.find((p) => !p.done);
  if (missed)
    return {
      kind: 'not_shown',
      reason: `the head turn asked (${missed.motion} at ${missed.atMs} ms) was not seen: ${missed.detail} (${missed.frames} frames, turn ${Math.round(missed.shift * 100) / 100} of ${Math.round(missed.needed * 100) / 100})`,
    };
  if (!s.synced) return { kind: 'not_shown', reason: 'the mouth and the voice did not move together' };
  if (!s.naturalMotion) return { kind: 'not_shown', reason: 'no head motion or blink was seen' };
  return { kind: 'live' };
}
