/** The face video's two paths (grantor parameter MODO_VIDEO_TOKEN). */
export type VideoPath = 'grabacion' | 'tiempo_real';

export function videoPathOf(value: string): VideoPath {
  return value.trim().toLowerCase() === 'tiempo_real' ? 'tiempo_real' : 'grabacion';
}

/** Spec §9 timings of the face video (ms). */
export const faceTimings = {
  /** 'Ubica tu rostro de frente para empezar' shows this long before the face photo ("first display delay"). */
  firstDisplayDelayMs: 7000,
  retryDisplayDelayMs: 2000,
  /** "capture delay ... 1 s or 3 s for the face photo": 3 s on iOS, whose cameras settle exposure later. */
  captureDelayMs: 1000,
  captureDelayIosMs: 3000,
  /** "stability wait (about 5 s after the token arrives)". */
  stabilityWaitMs: 5000,
  /** The spec's tick (the title's second); the digits follow the code's schedule (DigitSchedule). */
  tickMs: 1000,
  /** "slide 220 ms": the digit carousel's transition. */
  slideMs: 220,
  /** "Watchdog: over 50 s without response shows an error." */
  watchdogMs: 50_000,
} as const;

/** Digits of the code shown to the user: the first four ("at least 4 characters used"). */
export const shownDigits = 4;

/**
 * When each digit appears and when the recording stops, in ms from the recording's start (tick 0): drawn at random
 * by the server for each code and returned with it (docs/decisions.md "Randomised digit schedule"). The server
 * checks that the reading follows these times, so the screen must show each digit exactly then.
 */
export interface DigitSchedule {
  digitsMs: number[];
  stopMs: number;
  /** Head turns asked after the digits (the grantor's MOVIMIENTOS_VIDEO_TOKEN), each shown from its time. */
  prompts?: MotionPrompt[];
}

export interface MotionPrompt {
  /** The person's own left or right. */
  motion: 'left' | 'right';
  atMs: number;
}

function isMotionPrompts(value: unknown, after: number, stopMs: number): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value)) return false;
  let last = after;
  for (const p of value) {
    const { motion, atMs } = (p ?? {}) as Record<string, unknown>;
    if ((motion !== 'left' && motion !== 'right') || typeof atMs !== 'number' || !(atMs > last) || !(atMs < stopMs)) return false;
    last = atMs;
  }
  return true;
}

export function isDigitSchedule(value: unknown): value is DigitSchedule {
  if (typeof value !== 'object' || value === null) return false;
  const { digitsMs, stopMs } = value as Record<string, unknown>;
  return (
    Array.isArray(digitsMs) &&
    digitsMs.length > 0 &&
    digitsMs.every((v, i) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && (i === 0 || v > (digitsMs[i - 1] as number))) &&
    typeof stopMs === 'number' &&
    stopMs > (digitsMs[digitsMs.length - 1] as number) &&
    isMotionPrompts((value as Record<string, unknown>).prompts, digitsMs[digitsMs.length - 1] as number, stopMs)
  );
}

/** What the screen shows at a moment of the reading sequence (docs/flow.md §4's screens). */
export interface TickView {
  /** The instruction title ('read each number...') is visible. */
  titleVisible: boolean;
  /** Slot of the digit carousel shown (0-3 the digits, 4 the blank fifth slot), null before the first digit. */
  slot: number | null;
  /** The digit shown, '' on the blank fifth slot and before the first digit. */
  digit: string;
  /** 'Procesando, gracias por tu paciencia' is shown. */
  processing: boolean;
  /** The head turn asked now (after the digits), or null. */
  motion: MotionPrompt['motion'] | null;
}

/** How long the last digit stays before the blank fifth slot (the spec's one tick). */
const lastDigitShownMs = 1000;

/**
 * The screen `elapsedMs` after the recording started: the title for the first second ("tick 1 hides the title"),
 * each digit from its time until the next one's, the blank fifth slot a second after the last, and processing at
 * the stop (real time) or a second after it (recorder, which stops and sends first).
 */
export function readingView(elapsedMs: number, code: string, schedule: DigitSchedule, path: VideoPath): TickView {
  const titleVisible = elapsedMs < faceTimings.tickMs;
  const times = schedule.digitsMs.slice(0, shownDigits);
  const last = times[times.length - 1]!;
  let slot: number | null = null;
  for (let i = 0; i < times.length; i += 1) if (elapsedMs >= times[i]!) slot = i;
  if (slot !== null && elapsedMs >= last + lastDigitShownMs) slot = shownDigits;
  const digit = slot !== null && slot < shownDigits ? (code[slot] ?? '') : '';
  const processing = elapsedMs >= schedule.stopMs + (path === 'tiempo_real' ? 0 : faceTimings.tickMs);
  let motion: MotionPrompt['motion'] | null = null;
  for (const p of schedule.prompts ?? []) if (elapsedMs >= p.atMs && elapsedMs < schedule.stopMs) motion = p.motion;
  return { titleVisible, slot, digit, processing, motion };
}

/** The moments (ms from the recording start, before the stop) at which the screen changes. */
export function viewChangesMs(schedule: DigitSchedule): number[] {
  const times = schedule.digitsMs.slice(0, shownDigits);
  const changes = [0, faceTimings.tickMs, ...times, times[times.length - 1]! + lastDigitShownMs, ...(schedule.prompts ?? []).map((p) => p.atMs)].filter((t) => t < schedule.stopMs);
  return [...new Set(changes)].sort((a, b) => a - b);
}

/** How long the positioning prompt shows before the photo: 7 s the first time, 2 s on a retry. */
export function displayDelayMs(retry: boolean): number {
  return retry ? faceTimings.retryDisplayDelayMs : faceTimings.firstDisplayDelayMs;
}

export function captureDelayMs(ios: boolean): number {
  return ios ? faceTimings.captureDelayIosMs : faceTimings.captureDelayMs;
}
