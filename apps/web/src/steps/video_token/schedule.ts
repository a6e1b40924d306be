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
  /** "digits one per second". */
  tickMs: 1000,
  /** "slide 220 ms": the digit carousel's transition. */
  slideMs: 220,
  /** "Watchdog: over 50 s without response shows an error." */
  watchdogMs: 50_000,
} as const;

/** Digits of the code shown to the user: the first four ("at least 4 characters used"). */
export const shownDigits = 4;

/** Tick at which the recording stops (recorder) or finish_record is sent (real time). */
export const finishTick = 8;

/** What the screen shows at a tick of the reading sequence (spec §4 "Tick timing"). Tick 0 is its start. */
export interface TickView {
  /** The instruction title ('read each number...') is visible. */
  titleVisible: boolean;
  /** Slot of the digit carousel shown (0-3 the digits, 4 the blank fifth slot), null before the first digit. */
  slot: number | null;
  /** The digit shown, '' on the blank fifth slot and before the first digit. */
  digit: string;
  /** 'Procesando, gracias por tu paciencia' is shown. */
  processing: boolean;
}

export function tickView(tick: number, code: string, path: VideoPath): TickView {
  const titleVisible = tick < 1;
  // tick 2 shows digit 1, ticks 3-5 digits 2-4, tick 6 (and after, until processing) the blank fifth slot.
  const slot = tick < 2 ? null : Math.min(tick - 2, shownDigits);
  const digit = slot !== null && slot < shownDigits ? (code[slot] ?? '') : '';
  const processing = tick >= (path === 'tiempo_real' ? finishTick : finishTick + 1);
  return { titleVisible, slot, digit, processing };
}

/** The recording stops and is sent (recorder) or finish_record goes out (real time) exactly at this tick. */
export function isFinishTick(tick: number): boolean {
  return tick === finishTick;
}

/** How long the positioning prompt shows before the photo: 7 s the first time, 2 s on a retry. */
export function displayDelayMs(retry: boolean): number {
  return retry ? faceTimings.retryDisplayDelayMs : faceTimings.firstDisplayDelayMs;
}

export function captureDelayMs(ios: boolean): number {
  return ios ? faceTimings.captureDelayIosMs : faceTimings.captureDelayMs;
}
