/**
 * The challenge's schedule: when each digit of the code appears, counted from the start of the recording, and
 * when the recording stops. Drawn with crypto randomness for every code, stored with it, sent to the browser with
 * it (which shows each digit exactly then) and checked against the voice and the mouth in the video
 * (liveness.ts): a reading that does not follow it (a replayed talking video, another session's reading) fails.
 * Why these ranges: docs/decisions.md "Randomised digit schedule".
 */
import { randomInt } from 'node:crypto';

export interface ChallengeSchedule {
  /** When each digit appears (ms from the recording start), increasing. */
  digitsMs: number[];
  /** When the recording stops (recorder path) or finish_record is sent (real-time path). */
  stopMs: number;
  /** Head turns asked after the digits (grantor parameter MOVIMIENTOS_VIDEO_TOKEN); absent when none. */
  prompts?: MotionPrompt[];
}

/** A head turn to the person's own left or right, asked from `atMs` (shown on the screen until the next one). */
export interface MotionPrompt {
  motion: 'left' | 'right';
  atMs: number;
}

export const promptRanges = {
  /**
   * The first prompt appears when the last digit's answer time is over (scheduleRanges.answerMs); each stays this
   * long, and the recording stops after the last: a reaction (reading the prompt, 0.3-0.9 s) and a turn out and
   * back (the real clip's own turn took ~1.6 s; docs/decisions.md "Head-turn prompts that tell an asked turn from
   * natural motion"). 2.2 s before that measure.
   */
  promptMs: 2600,
  maxPrompts: 2,
} as const;

export const scheduleRanges = {
  /** The first digit appears 1.5-2.5 s after the recording starts (the spec's fixed 2 s on average). */
  firstDigitMs: [1500, 2500],
  /**
   * Between two digits: 0.8-2.3 s (the spec's fixed 1 s is too short to tell a late answer from the next one; the
   * upper end bounds how often another session's reading fits this schedule: docs/decisions.md "Replays into other
   * sessions").
   */
  intervalMs: [800, 2300],
  /** From the last digit to the stop: room for a slow reader's last answer (latency up to 1.3 s + the word). */
  answerMs: 2200,
} as const;

/** The spec's fixed timing (first digit at 2 s, one a second, stop at 8 s): codes stored before schedules existed. */
export function specSchedule(digits = 4): ChallengeSchedule {
  const digitsMs = Array.from({ length: digits }, (_, i) => 2000 + i * 1000);
  return { digitsMs, stopMs: 8000 };
}

/**
 * A fresh random schedule for `digits` digits (crypto.randomInt, whole milliseconds), with `prompts` head turns
 * (0-2, each side drawn at random) after the digits' answers.
 */
export function drawSchedule(digits = 4, draw: (min: number, max: number) => number = randomInt, prompts = 0): ChallengeSchedule {
  const [firstMin, firstMax] = scheduleRanges.firstDigitMs;
  const [stepMin, stepMax] = scheduleRanges.intervalMs;
  const digitsMs = [draw(firstMin, firstMax + 1)];
  for (let i = 1; i < digits; i += 1) digitsMs.push(digitsMs[i - 1]! + draw(stepMin, stepMax + 1));
  return withPrompts(
    { digitsMs, stopMs: digitsMs[digitsMs.length - 1]! + scheduleRanges.answerMs },
    Array.from({ length: Math.min(prompts, promptRanges.maxPrompts) }, () => (draw(0, 2) === 0 ? 'left' : 'right')),
  );
}

/** The schedule with head turns asked after its digits' answers (its stop moved after the last one). */
export function withPrompts(schedule: ChallengeSchedule, motions: ReadonlyArray<MotionPrompt['motion']>): ChallengeSchedule {
  if (motions.length === 0) return { digitsMs: [...schedule.digitsMs], stopMs: schedule.stopMs };
  const readingEnd = schedule.digitsMs[schedule.digitsMs.length - 1]! + scheduleRanges.answerMs;
  const prompts = motions.map((motion, i) => ({ motion, atMs: readingEnd + i * promptRanges.promptMs }));
  return { digitsMs: [...schedule.digitsMs], stopMs: readingEnd + motions.length * promptRanges.promptMs, prompts };
}

/** When the digits' part ends: the first prompt, or the stop. */
export function readingStopMs(schedule: ChallengeSchedule): number {
  return schedule.prompts?.[0]?.atMs ?? schedule.stopMs;
}

/** A schedule read back from storage or from the test setting; undefined when malformed. */
export function parseSchedule(value: unknown): ChallengeSchedule | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { digitsMs, stopMs } = value as Record<string, unknown>;
  if (!Array.isArray(digitsMs) || digitsMs.length === 0 || !digitsMs.every((v) => Number.isInteger(v) && v >= 0)) return undefined;
  if (!digitsMs.every((v, i) => i === 0 || v > digitsMs[i - 1])) return undefined;
  if (!Number.isInteger(stopMs) || (stopMs as number) <= digitsMs[digitsMs.length - 1]) return undefined;
  const { prompts } = value as Record<string, unknown>;
  if (prompts === undefined) return { digitsMs: digitsMs as number[], stopMs: stopMs as number };
  const valid =
    Array.isArray(prompts) &&
    prompts.length <= promptRanges.maxPrompts &&
    prompts.every((p, i) => {
      const { motion, atMs } = (p ?? {}) as Record<string, unknown>;
      const after = i === 0 ? digitsMs[digitsMs.length - 1] : (prompts[i - 1] as MotionPrompt).atMs;
      return (motion === 'left' || motion === 'right') && Number.isInteger(atMs) && (atMs as number) > after && (atMs as number) < (stopMs as number);
    });
  return valid ? { digitsMs: digitsMs as number[], stopMs: stopMs as number, ...(prompts.length > 0 ? { prompts: prompts as MotionPrompt[] } : {}) } : undefined;
}

export const TEST_SCHEDULE_VARIABLE = 'VIDEO_TOKEN_TEST_SCHEDULE_MS';

/**
 * TEST ONLY: `VIDEO_TOKEN_TEST_SCHEDULE_MS=first,interval,interval,interval` makes every code carry this schedule,
 * so that a browser test, whose fake camera plays a file made before the browser starts, can show a reading that
 * follows it. Accepted only with NODE_ENV=test: a fixed schedule is exactly what the random one is there to
 * prevent, so any other environment refuses to start with it set.
 */
export function testScheduleFromEnv(env: NodeJS.ProcessEnv): { ok: true; schedule: ChallengeSchedule | undefined } | { ok: false; problem: string } {
  const raw = env[TEST_SCHEDULE_VARIABLE]?.trim();
  if (!raw) return { ok: true, schedule: undefined };
  if (env.NODE_ENV !== 'test') return { ok: false, problem: `${TEST_SCHEDULE_VARIABLE} is a test-only setting: it is refused unless NODE_ENV=test` };
  const parts = raw.split(',').map((p) => Number(p.trim()));
  if (parts.length < 4 || !parts.every((p) => Number.isInteger(p) && p > 0)) {
    return { ok: false, problem: `${TEST_SCHEDULE_VARIABLE} must be the first digit's time and the intervals in ms, e.g. 1800,1200,900,1500` };
  }
  const digitsMs = [parts[0]!];
  for (const step of parts.slice(1)) digitsMs.push(digitsMs[digitsMs.length - 1]! + step);
  return { ok: true, schedule: { digitsMs, stopMs: digitsMs[digitsMs.length - 1]! + scheduleRanges.answerMs } };
}
