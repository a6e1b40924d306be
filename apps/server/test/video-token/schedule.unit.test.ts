import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { issueCode } from '../../src/features/face-video/codes.js';
import {
  challengeWindow,
  judgeLiveness,
  livenessSignals,
  livenessThresholds,
  promptSignals,
  replaySignals,
  scheduleSignals,
  utterances,
  type AudioEnvelope,
  type FrameThumbnails,
  type Utterance,
} from '../../src/features/face-video/liveness.js';
import { drawSchedule, parseSchedule, promptRanges, scheduleRanges, testScheduleFromEnv, withPrompts, type ChallengeSchedule } from '../../src/features/face-video/schedule.js';
import type { FrameMeasures } from '../../src/features/face-video/frame-measures.js';

const schedule: ChallengeSchedule = { digitsMs: [1830, 3010, 3880, 5650], stopMs: 7850 };
const window = challengeWindow(schedule);
const durationMs = 8000;

/** Speech at these [on, off] times as a 20 ms loudness envelope over a quiet floor. */
function envelope(spans: ReadonlyArray<readonly [number, number]>, length = durationMs): AudioEnvelope {
  return { stepMs: 20, rms: Array.from({ length: length / 20 }, (_, i) => (spans.some(([a, b]) => i * 20 >= a && i * 20 < b) ? 0.2 : 0.002)) };
}

/** A reader answering each digit `latency(i)` ms after it appears, each word `wordMs` long. */
const reading = (digitsMs: readonly number[], latency: (i: number) => number, wordMs = 450) => digitsMs.map((at, i) => [at + latency(i), at + latency(i) + wordMs] as const);

/** Frames at 4 fps whose mouth opens while `spans` speak, the head swaying. */
function frames(spans: ReadonlyArray<readonly [number, number]>, noseTurn: (t: number) => number = () => -0.14, length = durationMs): FrameMeasures[] {
  return Array.from({ length: (length / 1000) * 4 }, (_, i) => {
    const t = i * 250;
    const open = spans.some(([a, b]) => t >= a - 50 && t <= b + 100);
    return {
      timeMs: t,
      faces: 1,
      frameLuma: 120,
      face: {
        luma: 130,
        surroundLuma: 140,
        clipped: 0,
        sharpness: 900,
        mouthOpening: open ? 0.33 : 0.15,
        eyeOpening: Math.abs(t - 6500) < 100 ? 0.2 : 0.35,
        noseX: 0.03 * Math.sin(t / 700),
        noseY: 0,
        size: 0.4,
        yaw: 0.05 * Math.sin(t / 900),
        noseTurn: noseTurn(t) + 0.01 * Math.sin(t / 300),
        pitch: 0,
        roll: 0,
      },
    };
  });
}

const moving: FrameThumbnails = {
  timesMs: Array.from({ length: 240 }, (_, i) => Math.round((i * 1000) / 30)),
  frames: Array.from({ length: 240 }, (_, i) => Uint8Array.from({ length: 192 }, (_, k) => (i * 37 + k * 11 + ((i * k) % 13)) % 256)),
};

function verdict(spans: ReadonlyArray<readonly [number, number]>, mouth = spans) {
  const signals = livenessSignals(frames(mouth), moving, envelope(spans), window);
  return { signals, verdict: judgeLiveness(signals) };
}

describe('the digit schedule', () => {
  it('is drawn at random within its ranges, the stop after the last digit', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 200; n += 1) {
      const s = drawSchedule(4);
      seen.add(s.digitsMs.join(','));
      expect(s.digitsMs[0]).toBeGreaterThanOrEqual(scheduleRanges.firstDigitMs[0]);
      expect(s.digitsMs[0]).toBeLessThanOrEqual(scheduleRanges.firstDigitMs[1]);
      for (let i = 1; i < 4; i += 1) {
        const step = s.digitsMs[i]! - s.digitsMs[i - 1]!;
        expect(step).toBeGreaterThanOrEqual(scheduleRanges.intervalMs[0]);
        expect(step).toBeLessThanOrEqual(scheduleRanges.intervalMs[1]);
      }
      expect(s.stopMs).toBe(s.digitsMs[3]! + scheduleRanges.answerMs);
    }
    expect(seen.size).toBe(200);
  });

  it('comes with every issued code, and reads back only when well formed', () => {
    const issued = issueCode(new Date());
    expect(issued.schedule.digitsMs).toHaveLength(4);
    expect(parseSchedule(JSON.parse(JSON.stringify(issued.schedule)))).toEqual(issued.schedule);
    expect(parseSchedule({ digitsMs: [2000, 1500], stopMs: 5000 })).toBeUndefined();
    expect(parseSchedule({ digitsMs: [2000, 3000], stopMs: 2500 })).toBeUndefined();
    expect(parseSchedule('2000,3000')).toBeUndefined();
  });

  it('has a fixed test setting that only NODE_ENV=test accepts, else the server refuses to start', () => {
    const env = { VIDEO_TOKEN_TEST_SCHEDULE_MS: '1800,1200,900,1500' };
    expect(testScheduleFromEnv({ ...env, NODE_ENV: 'test' })).toEqual({ ok: true, schedule: { digitsMs: [1800, 3000, 3900, 5400], stopMs: 7600 } });
    expect(testScheduleFromEnv({ ...env, NODE_ENV: 'production' }).ok).toBe(false);
    expect(testScheduleFromEnv({ ...env }).ok).toBe(false);
    expect(testScheduleFromEnv({ VIDEO_TOKEN_TEST_SCHEDULE_MS: '1800,x', NODE_ENV: 'test' }).ok).toBe(false);
    expect(() => loadConfig({ ...env, NODE_ENV: 'production' })).toThrow(/test-only setting/);
    expect(loadConfig({ ...env, NODE_ENV: 'test' }).videoTokenTestSchedule?.digitsMs).toEqual([1800, 3000, 3900, 5400]);
    expect(issueCode(new Date(), { fixedSchedule: { digitsMs: [1800, 3000, 3900, 5400], stopMs: 7600 } }).schedule.stopMs).toBe(7600);
  });
});

describe('a reading that follows the schedule', () => {
  it('passes with natural variation: reaction 350-500 ms, a late starter, a slow reader', () => {
    const jitter = [0, 90, -60, 140];
    expect(verdict(reading(schedule.digitsMs, (i) => 400 + jitter[i]!)).verdict).toEqual({ kind: 'live' });
    expect(verdict(reading(schedule.digitsMs, (i) => 850 + jitter[i]!)).verdict).toEqual({ kind: 'live' });
    expect(verdict(reading(schedule.digitsMs, (i) => 600 + jitter[i]! / 2, 620)).verdict).toEqual({ kind: 'live' });
  });

  it("passes when the resting mouth jitters (a moving head) and the gaps' frames are as closed as while waiting", () => {
    const spans = reading(schedule.digitsMs, () => 420);
    // The mouth measure at rest jitters 0.15-0.19 (a restless head); every gap's frame sits at the top of it, above
    // the fixed half margin (0.175): as closed as before the first digit, so the gaps rest.
    const jittery = (mouth: (t: number, open: boolean) => number) =>
      frames(spans).map((f) => {
        const open = spans.some(([a, b]) => f.timeMs >= a - 50 && f.timeMs <= b + 100);
        return { timeMs: f.timeMs, opening: mouth(f.timeMs, open) };
      });
    const gapFrame = (t: number) => spans.some(([, b], i) => i < spans.length - 1 && t > b + 100 && t < spans[i + 1]![0] - 50);
    const resting = jittery((t, open) => (open ? 0.33 : gapFrame(t) ? 0.188 : 0.15 + 0.04 * ((t / 250) % 2)));
    const s = scheduleSignals(utterances(envelope(spans), 0.05), resting, 0.15, window);
    expect(s.mouthRested).toBe(s.gapsSeen);
    expect(s.followed).toBe(true);
    // The same reading whose mouth stays half open in the gaps (at the open threshold) does not rest, however
    // much it moved while waiting.
    const talking = jittery((t, open) => (open ? 0.33 : gapFrame(t) ? 0.2 : t < 1500 ? 0.15 + 0.2 * ((t / 250) % 2) : 0.15));
    const stray = scheduleSignals(utterances(envelope(spans), 0.05), talking, 0.15, window);
    expect(stray.mouthRested).toBe(0);
    expect(stray.followed).toBe(false);
  });

  it("counts a short gap's clear dip as rest even when the closed mouth reads a hair above the waiting frames", () => {
    const spans = reading(schedule.digitsMs, () => 420);
    const gapFrame = (t: number) => spans.some(([, b], i) => i < spans.length - 1 && t > b + 100 && t < spans[i + 1]![0] - 50);
    const mouth = (openAt: number, gapAt: number) =>
      frames(spans).map((f) => ({ timeMs: f.timeMs, opening: spans.some(([a, b]) => f.timeMs >= a - 50 && f.timeMs <= b + 100) ? openAt : gapFrame(f.timeMs) ? gapAt : 0.15 }));
    // Waiting at 0.15 puts the rest bound at 0.175 and the open threshold at 0.2; the gaps' frames at 0.19 came back
    // from answers opened to 0.33 more than halfway (to 0.24 or below): they rest.
    const dipped = scheduleSignals(utterances(envelope(spans), 0.05), mouth(0.33, 0.19), 0.15, window);
    expect(dipped.mouthRested).toBe(dipped.gapsSeen);
    expect(dipped.followed).toBe(true);
    // The same gap level between answers that barely opened (0.21) is not half way back: no rest.
    const shallow = scheduleSignals(utterances(envelope(spans), 0.05), mouth(0.21, 0.19), 0.15, window);
    expect(shallow.mouthRested).toBe(0);
    expect(shallow.followed).toBe(false);
    // And a gap held at the open threshold never rests, however wide the answers opened.
    expect(scheduleSignals(utterances(envelope(spans), 0.05), mouth(0.5, 0.2), 0.15, window).mouthRested).toBe(0);
  });

  it('joins the stop inside a word and drops clicks', () => {
    const speech = utterances(
      envelope([
        [1000, 1200],
        [1260, 1450],
        [3000, 3040],
      ]),
      0.05,
    );
    expect(speech).toEqual([{ onMs: 1000, offMs: 1460 }]);
  });
});

describe('a reading that does not follow the schedule is refused as the phrase failure, not live', () => {
  it('continuous reading, a digit a second from the start (the replayed talking video)', () => {
    const { verdict: v } = verdict(Array.from({ length: 8 }, (_, k) => [400 + k * 1000, 750 + k * 1000] as const));
    expect(v.kind).toBe('not_shown');
    expect(v.kind === 'not_shown' && v.reason).toMatch(/schedule/);
  });

  it("another session's schedule, even shifted to match its first digit", () => {
    const other = [2210, 3090, 4780, 5650];
    const shift = schedule.digitsMs[0]! - other[0]!;
    const { signals, verdict: v } = verdict(
      reading(
        other.map((t) => t + shift),
        () => 420,
      ),
    );
    expect(v.kind).toBe('not_shown');
    expect(signals.schedule.followed).toBe(false);
  });

  it('talk running through the gaps (words joined into phrases)', () => {
    const { signals, verdict: v } = verdict([
      [2100, 3400],
      [3600, 4700],
      [5000, 6800],
    ]);
    expect(v.kind).toBe('not_shown');
    expect(signals.schedule.followed).toBe(false);
  });

  it('speech before the first digit and between the answers', () => {
    const spans = [...reading(schedule.digitsMs, () => 420), [1000, 1400] as const, [4500, 4900] as const];
    expect(verdict(spans).signals.schedule.detail).toMatch(/outside the digits' answers/);
  });

  it('answers before the digit could be seen', () => {
    expect(verdict(reading(schedule.digitsMs, (i) => (i === 2 ? 60 : 400))).signals.schedule.followed).toBe(false);
  });

  it('a voice that follows while the mouth does not (dubbed sound over a talking face)', () => {
    const voice = reading(schedule.digitsMs, () => 420);
    const mouth = Array.from({ length: 8 }, (_, k) => [300 + k * 1000, 750 + k * 1000] as const);
    const s = scheduleSignals(
      utterances(envelope(voice), 0.05),
      frames(mouth).map((f) => ({ timeMs: f.timeMs, opening: f.face!.mouthOpening })),
      0.15,
      window,
    );
    expect(s.followed).toBe(false);
  });

  it('no utterances at all', () => {
    const none: Utterance[] = [];
    expect(scheduleSignals(none, [], 0.15, window)).toMatchObject({ answered: 0, followed: false });
  });
});

/** A seeded draw in drawSchedule's shape (min inclusive, max exclusive), so the other sessions are the same every run. */
function seededDraw(seed: number): (min: number, max: number) => number {
  let a = seed >>> 0;
  return (min, max) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min));
  };
}

describe("a genuine reading replayed into other sessions (docs/decisions.md 'Replays into other sessions')", () => {
  const length = 12_000;
  /** The reading of `schedule` (latencies 400-540 ms) judged against `other`: live or not. */
  const spans = reading(schedule.digitsMs, (i) => 400 + [0, 90, -60, 140][i]!);
  const audio = envelope(spans, length);
  const mouth = frames(spans, undefined, length);
  const frameReplay = replaySignals(moving);
  const live = (other: ChallengeSchedule) => judgeLiveness(livenessSignals(mouth, moving, audio, challengeWindow(other), livenessThresholds, frameReplay)).kind === 'live';
  // The schedule check alone (the other checks do not depend on the schedule's times): an upper bound on `live`.
  const speech = utterances(audio, 0.05);
  const mouthSeries = mouth.map((f) => ({ timeMs: f.timeMs, opening: f.face!.mouthOpening }));
  const follows = (other: ChallengeSchedule) => scheduleSignals(speech, mouthSeries, 0.15, challengeWindow(other)).followed;

  it('is live against its own schedule', () => {
    expect(live(schedule)).toBe(true);
    expect(follows(schedule)).toBe(true);
  });

  it('fits few other schedules, fewer than with the former intervals (0.8-1.9 s)', () => {
    // Measured: 17 (0.6 %) as recorded, 39 (1.3 %) timed; 56 timed with the former intervals. This reading's own
    // latencies spread 200 ms of the 350 allowed; a reader as regular as the generated ones (docs/decisions.md).
    const draw = seededDraw(18);
    let asRecorded = 0;
    let timed = 0;
    const trials = 3000;
    for (let k = 0; k < trials; k += 1) {
      const other = drawSchedule(4, draw);
      if (follows(other)) asRecorded += 1;
      const shift = schedule.digitsMs[0]! - other.digitsMs[0]!;
      if (follows({ digitsMs: other.digitsMs.map((t) => t + shift), stopMs: other.stopMs + shift })) timed += 1;
    }
    expect(asRecorded / trials).toBeLessThan(0.015);
    expect(timed / trials).toBeLessThan(0.025);
    // The same reading against schedules drawn with the former intervals (0.8-1.9 s) fits more of them: the range
    // is what bounds this, not a tolerance.
    const former = seededDraw(18);
    let formerTimed = 0;
    for (let k = 0; k < trials; k += 1) {
      const first = former(1500, 2501);
      const digitsMs = [first];
      for (let i = 1; i < 4; i += 1) digitsMs.push(digitsMs[i - 1]! + former(800, 1901));
      const shift = schedule.digitsMs[0]! - first;
      if (follows({ digitsMs: digitsMs.map((t) => t + shift), stopMs: digitsMs[3]! + 2200 + shift })) formerTimed += 1;
    }
    expect(formerTimed).toBeGreaterThan(timed * 1.3);
  });

  it('leaves a reader live at the ends of the interval range: 0.8 s and 2.3 s gaps, a late start, a slow reader', () => {
    const [shortest, longest] = scheduleRanges.intervalMs;
    for (const step of [shortest, longest]) {
      const own: ChallengeSchedule = { digitsMs: [2500, 2500 + step, 2500 + 2 * step, 2500 + 3 * step], stopMs: 2500 + 3 * step + scheduleRanges.answerMs };
      for (const [latency, word] of [
        [420, 450],
        [850, 450],
        [620, 620],
      ] as const) {
        const read = reading(own.digitsMs, (i) => latency + [0, 60, 20, 80][i]!, word);
        const signals = livenessSignals(frames(read, undefined, length), moving, envelope(read, length), challengeWindow(own), livenessThresholds, frameReplay);
        expect({ step, latency, verdict: judgeLiveness(signals) }).toEqual({ step, latency, verdict: { kind: 'live' } });
      }
    }
  });
});

describe('motion prompts (MOVIMIENTOS_VIDEO_TOKEN): head turns asked after the digits', () => {
  it('are drawn with the schedule only when asked for: after the last answer, one per 2.6 s, both sides, the stop after them', () => {
    expect(drawSchedule(4).prompts).toBeUndefined();
    expect(drawSchedule(4, undefined, 0).prompts).toBeUndefined();
    const sides = new Set<string>();
    for (let k = 0; k < 100; k += 1) {
      const drawn = drawSchedule(4, undefined, 2);
      const last = drawn.digitsMs[3]!;
      expect(drawn.prompts).toHaveLength(2);
      expect(drawn.prompts![0]!.atMs).toBe(last + scheduleRanges.answerMs);
      expect(drawn.prompts![1]!.atMs).toBe(last + scheduleRanges.answerMs + promptRanges.promptMs);
      expect(drawn.stopMs).toBe(last + scheduleRanges.answerMs + 2 * promptRanges.promptMs);
      for (const p of drawn.prompts!) sides.add(p.motion);
      expect(parseSchedule(JSON.parse(JSON.stringify(drawn)))).toEqual(drawn);
    }
    expect([...sides].sort()).toEqual(['left', 'right']);
    expect(drawSchedule(4, undefined, 5).prompts).toHaveLength(2);
  });

  it('read back only when well formed', () => {
    const good = withPrompts(schedule, ['left']);
    expect(parseSchedule({ ...good, prompts: [{ motion: 'up', atMs: good.prompts![0]!.atMs }] })).toBeUndefined();
    expect(parseSchedule({ ...good, prompts: [{ motion: 'left', atMs: 100 }] })).toBeUndefined();
    expect(parseSchedule({ ...good, prompts: [{ motion: 'left', atMs: good.stopMs + 1 }] })).toBeUndefined();
    expect(parseSchedule({ ...good, prompts: 'left' })).toBeUndefined();
    expect(parseSchedule(good)).toEqual(good);
  });

  it('come with a code issued for a grantor that asks for them', () => {
    expect(issueCode(new Date(), { prompts: 1 }).schedule.prompts).toHaveLength(1);
    expect(issueCode(new Date()).schedule.prompts).toBeUndefined();
  });

  const asked = withPrompts(schedule, ['left', 'right']);
  const promptsAt = asked.prompts!.map((p) => p.atMs);
  const length = asked.stopMs + 250;
  const spans = reading(schedule.digitsMs, (i) => 400 + [0, 90, -60, 140][i]!);
  /** A head turn (~0.25 eye-corner distances of nose offset) from 500 ms to 1500 ms after each prompt. */
  const turning = (signs: readonly number[]) => (t: number) => -0.14 + asked.prompts!.reduce((sum, p, i) => sum + (t >= p.atMs + 500 && t <= p.atMs + 1500 ? signs[i]! * 0.25 : 0), 0);
  const judged = (noseTurn: (t: number) => number) => {
    const signals = livenessSignals(frames(spans, noseTurn, length), moving, envelope(spans), challengeWindow(asked));
    return { signals, verdict: judgeLiveness(signals) };
  };

  it("pass when the person turns to each side asked (left: the nose to the picture's right)", () => {
    const { signals, verdict } = judged(turning([1, -1]));
    expect(verdict).toEqual({ kind: 'live' });
    expect(signals.prompts!.map((p) => p.done)).toEqual([true, true]);
    expect(signals.prompts!.map((p) => p.atMs)).toEqual(promptsAt);
  });

  it('refuse, as the phrase failure, a reading that follows the digits without the turns, or turning the other way', () => {
    for (const noseTurn of [() => -0.14, turning([-1, 1]), turning([1, 0])]) {
      const { verdict } = judged(noseTurn);
      expect(verdict.kind).toBe('not_shown');
      expect(verdict.kind === 'not_shown' && verdict.reason).toMatch(/^the head turn asked \((left|right) at \d+ ms\) was not seen/);
    }
  });

  describe('tell an asked turn from natural motion (one prompt to the left at 8 s, frames at 4 a second)', () => {
    const left = [{ motion: 'left' as const, atMs: 8000 }];
    /** A reading from 0 to 8 s swaying ±`sway` round 0.1, then `after(ms from the prompt)` added. */
    const series = (after: (ms: number) => number, sway = 0.01, from = 0) =>
      Array.from({ length: 48 }, (_, i) => i * 250)
        .filter((t) => t >= from)
        .map((t) => ({ timeMs: t, noseTurn: 0.1 + sway * Math.sin(t / 400) + (t >= 8000 ? after(t - 8000) : 0) }));
    /** A turn of `size` from `startMs` after the prompt, held for `holdMs`, then back. */
    const turn =
      (size: number, startMs = 500, holdMs = 1000) =>
      (ms: number) =>
        ms >= startMs && ms < startMs + holdMs ? size : 0;
    const judge = (frames: ReturnType<typeof series>) => promptSignals(frames, left)[0]!;

    it('a turn out and back after the prompt and a reaction passes; the floor is promptTurn for a steady reader', () => {
      expect(judge(series(turn(0.2)))).toMatchObject({ done: true, detail: '', needed: livenessThresholds.promptTurn });
      expect(judge(series(turn(0.2, 900, 1400))).done).toBe(true);
      expect(judge(series(turn(livenessThresholds.promptTurn - 0.02))).detail).toBe('not turned far enough towards the asked side');
    });

    it('the other way, already turned when the prompt appeared, or not back before the prompt ends: refused', () => {
      expect(judge(series(turn(-0.2))).done).toBe(false);
      expect(judge(series((ms) => (ms < 800 ? -0.2 : ms < 1800 ? 0.2 : 0))).detail).toBe('turned the other way first');
      expect(judge(series((ms) => (ms < 1500 ? 0.2 : 0)))).toMatchObject({ done: false, detail: 'already turned when the prompt appeared' });
      expect(judge(series((ms) => (ms >= 500 ? 0.2 : 0)))).toMatchObject({ done: false, detail: 'did not turn back' });
    });

    it("the turn needed grows with the head's own sway while reading (a restless head or natural motion)", () => {
      const restless = judge(series(turn(0.2), 0.15));
      expect(restless.needed).toBeGreaterThan(0.25);
      expect(restless).toMatchObject({ done: false, detail: 'not turned far enough towards the asked side' });
      expect(judge(series(turn(0.4), 0.15)).done).toBe(true);
    });

    it('too short a reading to know the sway refuses the prompt', () => {
      expect(judge(series(turn(0.3), 0.01, 6500))).toMatchObject({ done: false, detail: 'too few frames with a face while reading (6)' });
    });
  });

  it('leave a schedule without prompts judged as before (the turns are not asked, a head turn is not needed)', () => {
    expect(judgeLiveness(livenessSignals(frames(spans), moving, envelope(spans), window))).toEqual({ kind: 'live' });
  });
});
