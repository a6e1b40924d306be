import { describe, expect, it } from 'vitest';
import { captureDelayMs, displayDelayMs, faceTimings, isDigitSchedule, readingView, videoPathOf, viewChangesMs } from './schedule';

describe("face video reading sequence (docs/flow.md §4 screens, the code's schedule)", () => {
  const code = '4729';
  const schedule = { digitsMs: [1830, 3010, 3880, 5650], stopMs: 7850 };

  it('time 0 shows the instruction title and no digit; "tick 1 hides the title"', () => {
    expect(readingView(0, code, schedule, 'grabacion')).toEqual({ titleVisible: true, slot: null, digit: '', processing: false, motion: null });
    expect(readingView(1000, code, schedule, 'grabacion')).toEqual({ titleVisible: false, slot: null, digit: '', processing: false, motion: null });
  });

  it('each digit appears exactly at its time and stays until the next; the blank fifth slot a second after the last', () => {
    expect(readingView(1829, code, schedule, 'grabacion').slot).toBeNull();
    expect([1830, 3009, 3010, 3880, 5650, 6649].map((t) => readingView(t, code, schedule, 'grabacion').digit)).toEqual(['4', '4', '7', '2', '9', '9']);
    expect(readingView(6650, code, schedule, 'grabacion')).toMatchObject({ slot: 4, digit: '', processing: false });
    expect(viewChangesMs(schedule)).toEqual([0, 1000, 1830, 3010, 3880, 5650, 6650]);
  });

  it('only the first four digits are read ("at least 4 characters used")', () => {
    expect([1830, 3010, 3880, 5650].map((t) => readingView(t, '123456', schedule, 'grabacion').digit).join('')).toBe('1234');
  });

  it('recorder path: stops and sends at the stop, processing a second later; real time: processing at the stop', () => {
    expect(readingView(7850, code, schedule, 'grabacion').processing).toBe(false);
    expect(readingView(8850, code, schedule, 'grabacion').processing).toBe(true);
    expect(readingView(7849, code, schedule, 'tiempo_real').processing).toBe(false);
    expect(readingView(7850, code, schedule, 'tiempo_real').processing).toBe(true);
  });

  it('motion prompts (MOVIMIENTOS_VIDEO_TOKEN): each head turn is asked from its time to the next one, the digits hidden meanwhile', () => {
    const asked = {
      digitsMs: [1830, 3010, 3880, 5650],
      stopMs: 12250,
      prompts: [
        { motion: 'left' as const, atMs: 7850 },
        { motion: 'right' as const, atMs: 10050 },
      ],
    };
    expect(readingView(7849, code, asked, 'grabacion')).toMatchObject({ slot: 4, motion: null });
    expect([7850, 10049, 10050, 12249].map((t) => readingView(t, code, asked, 'grabacion').motion)).toEqual(['left', 'left', 'right', 'right']);
    expect(readingView(12250, code, asked, 'tiempo_real')).toMatchObject({ processing: true, motion: null });
    expect(viewChangesMs(asked)).toEqual([0, 1000, 1830, 3010, 3880, 5650, 6650, 7850, 10050]);
    expect(isDigitSchedule(asked)).toBe(true);
    expect(isDigitSchedule({ ...asked, prompts: [{ motion: 'up', atMs: 7850 }] })).toBe(false);
    expect(isDigitSchedule({ ...asked, prompts: [{ motion: 'left', atMs: 13000 }] })).toBe(false);
    expect(readingView(7850, code, schedule, 'grabacion').motion).toBeNull();
  });

  it('accepts only a well-formed schedule', () => {
    expect(isDigitSchedule(schedule)).toBe(true);
    expect(isDigitSchedule({ digitsMs: [2000, 1000], stopMs: 5000 })).toBe(false);
    expect(isDigitSchedule({ digitsMs: [2000], stopMs: 1000 })).toBe(false);
    expect(isDigitSchedule(null)).toBe(false);
  });

  it('docs/flow.md §9 delays: first display 7 s (2 s on retry), face photo 1 s or 3 s, stability 5 s, watchdog 50 s', () => {
    expect(displayDelayMs(false)).toBe(7000);
    expect(displayDelayMs(true)).toBe(2000);
    expect(captureDelayMs(false)).toBe(1000);
    expect(captureDelayMs(true)).toBe(3000);
    expect(faceTimings.stabilityWaitMs).toBe(5000);
    expect(faceTimings.watchdogMs).toBe(50_000);
    expect(faceTimings.tickMs).toBe(1000);
  });

  it("MODO_VIDEO_TOKEN: 'tiempo_real' selects the real-time path, anything else the recorder", () => {
    expect(videoPathOf('tiempo_real')).toBe('tiempo_real');
    expect(videoPathOf(' TIEMPO_REAL ')).toBe('tiempo_real');
    expect(videoPathOf('grabacion')).toBe('grabacion');
    expect(videoPathOf('')).toBe('grabacion');
  });
});

describe('face guide oval', () => {
  it('keeps an upright face shape (width 0.75 of height in pixels) on landscape and portrait frames', async () => {
    const { ovalOf } = await import('./FaceGuide');
    for (const frame of [
      { width: 640, height: 480 },
      { width: 480, height: 640 },
      { width: 1280, height: 720 },
    ]) {
      const oval = ovalOf(frame);
      const widthPx = ((oval.rx * 2) / 100) * frame.width;
      const heightPx = ((oval.ry * 2) / 100) * frame.height;
      expect(widthPx / heightPx).toBeCloseTo(0.75, 5);
    }
  });
});
