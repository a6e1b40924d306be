import { describe, expect, it } from 'vitest';
import { captureDelayMs, displayDelayMs, faceTimings, isFinishTick, tickView, videoPathOf } from './schedule';

describe('face video tick timing (spec §4)', () => {
  const code = '4729';

  it('tick 0 shows the instruction title and no digit; "tick 1 hides the title"', () => {
    expect(tickView(0, code, 'grabacion')).toEqual({ titleVisible: true, slot: null, digit: '', processing: false });
    expect(tickView(1, code, 'grabacion')).toEqual({ titleVisible: false, slot: null, digit: '', processing: false });
  });

  it('"tick 2 shows digit 1, ticks 3-5 digits 2-4, tick 6 a blank fifth slot"', () => {
    expect([2, 3, 4, 5].map((tick) => tickView(tick, code, 'grabacion').digit)).toEqual(['4', '7', '2', '9']);
    expect([2, 3, 4, 5, 6].map((tick) => tickView(tick, code, 'grabacion').slot)).toEqual([0, 1, 2, 3, 4]);
    expect(tickView(6, code, 'grabacion')).toMatchObject({ slot: 4, digit: '' });
    expect(tickView(7, code, 'grabacion')).toMatchObject({ slot: 4, digit: '', processing: false });
  });

  it('only the first four digits are read ("at least 4 characters used")', () => {
    expect([2, 3, 4, 5, 6].map((tick) => tickView(tick, '123456', 'grabacion').digit).join('')).toBe('1234');
  });

  it('"Recorder path: tick 8 stops recording and sends, tick 9 shows processing"', () => {
    expect(isFinishTick(8)).toBe(true);
    expect(isFinishTick(7) || isFinishTick(9)).toBe(false);
    expect(tickView(8, code, 'grabacion').processing).toBe(false);
    expect(tickView(9, code, 'grabacion').processing).toBe(true);
  });

  it('"Real-time path: tick 8 sends finish signal and shows processing"', () => {
    expect(tickView(7, code, 'tiempo_real').processing).toBe(false);
    expect(tickView(8, code, 'tiempo_real').processing).toBe(true);
  });

  it('spec §9 delays: first display 7 s (2 s on retry), face photo 1 s or 3 s, stability 5 s, watchdog 50 s', () => {
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
    for (const frame of [{ width: 640, height: 480 }, { width: 480, height: 640 }, { width: 1280, height: 720 }]) {
      const oval = ovalOf(frame);
      const widthPx = ((oval.rx * 2) / 100) * frame.width;
      const heightPx = ((oval.ry * 2) / 100) * frame.height;
      expect(widthPx / heightPx).toBeCloseTo(0.75, 5);
    }
  });
});
