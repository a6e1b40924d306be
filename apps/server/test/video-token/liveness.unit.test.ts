import { describe, expect, it } from 'vitest';
import type { FrameMeasures } from '../../src/features/face-video/frame-measures.js';
import { challengeWindow, judgeLiveness, livenessSignals, pearson, type AudioEnvelope, type FrameThumbnails } from '../../src/features/face-video/liveness.js';

const window = challengeWindow();
const fps = 4;
const durationMs = 9000;
const times = Array.from({ length: (durationMs / 1000) * fps }, (_, i) => (i * 1000) / fps);
// Speech of each digit: 300-800 ms after it is shown.
const speaking = (t: number) => window.slots.some(([from]) => t >= from + 300 && t <= from + 800);

function frame(timeMs: number, face: Partial<NonNullable<FrameMeasures['face']>> = {}): FrameMeasures {
  return {
    timeMs,
    faces: 1,
    frameLuma: 120,
    face: { luma: 130, surroundLuma: 140, clipped: 0, sharpness: 900, mouthOpening: 0.15, eyeOpening: 0.35, noseX: 0, noseY: 0, size: 0.4, yaw: 0, pitch: 0, roll: 0, ...face },
  };
}

/** A person reading the digits: the mouth opens while speaking, the head sways, one blink. */
const liveFrames = times.map((t) =>
  frame(t, { mouthOpening: speaking(t) ? 0.32 : 0.15, noseX: 0.03 * Math.sin(t / 700), yaw: 0.05 * Math.sin(t / 900), eyeOpening: Math.abs(t - 6500) < 100 ? 0.2 : 0.35 }),
);

function envelope(loud: (t: number) => boolean, level = 0.2, floor = 0.002): AudioEnvelope {
  return { stepMs: 20, rms: Array.from({ length: durationMs / 20 }, (_, i) => (loud(i * 20) ? level : floor)) };
}

/** Thumbnails of every frame at 30 fps; `content(i)` decides what each shows. */
function thumbs(content: (i: number) => number): FrameThumbnails {
  const count = (durationMs / 1000) * 30;
  return {
    timesMs: Array.from({ length: count }, (_, i) => Math.round((i * 1000) / 30)),
    frames: Array.from({ length: count }, (_, i) => {
      const seed = content(i);
      return Uint8Array.from({ length: 192 }, (_, k) => (seed * 37 + k * 11 + ((seed * k) % 13)) % 256);
    }),
  };
}

const movingThumbs = thumbs((i) => i);

describe('liveness from the challenge', () => {
  it('accepts a person reading the digits aloud', () => {
    const signals = livenessSignals(liveFrames, movingThumbs, envelope(speaking), window);
    expect(signals).toMatchObject({ mouthActive: true, speechActive: true, synced: true, naturalMotion: true, frozen: false, looped: false });
    expect(judgeLiveness(signals)).toEqual({ kind: 'live' });
  });

  it('calls a still picture a spoof, with or without someone reading the code', () => {
    const still = times.map((t) => frame(t));
    const same = thumbs(() => 7);
    expect(judgeLiveness(livenessSignals(still, same, envelope(speaking), window))).toEqual({ kind: 'spoof', reason: 'frozen' });
    expect(judgeLiveness(livenessSignals(still, same, null, window))).toEqual({ kind: 'spoof', reason: 'frozen' });
  });

  it('calls a clip played in a loop a spoof even though the mouth moves', () => {
    const period = 54; // 1.8 s at 30 fps
    const looped = livenessSignals(
      liveFrames,
      thumbs((i) => i % period),
      envelope(speaking),
      window,
    );
    expect(looped.repeatShare).toBeGreaterThan(0.9);
    expect(judgeLiveness(looped)).toEqual({ kind: 'spoof', reason: 'looped' });
  });

  it('calls a rigid face with a voice reading the code a spoof (a photo held up, moved by nobody)', () => {
    const rigid = times.map((t) => frame(t));
    expect(judgeLiveness(livenessSignals(rigid, movingThumbs, envelope(speaking), window))).toEqual({ kind: 'spoof', reason: 'voice_over_still_face' });
  });

  it('counts, without calling it a spoof, a person who did not read the code', () => {
    const silent = times.map((t) => frame(t, { noseX: 0.03 * Math.sin(t / 700) }));
    const verdict = judgeLiveness(
      livenessSignals(
        silent,
        movingThumbs,
        envelope(() => false),
        window,
      ),
    );
    expect(verdict).toMatchObject({ kind: 'not_shown' });
  });

  it('wants the voice while the mouth moves, not before or after the digits', () => {
    const early = livenessSignals(
      liveFrames,
      movingThumbs,
      envelope((t) => t < 1800),
      window,
    );
    expect(early.speechActive).toBe(false);
    expect(judgeLiveness(early)).toMatchObject({ kind: 'not_shown', reason: expect.stringContaining('speech') });
    const offBeat = livenessSignals(
      liveFrames,
      movingThumbs,
      envelope((t) => window.slots.some(([from]) => t >= from && t < from + 300) || t > 6500),
      window,
    );
    expect(offBeat.synced).toBe(false);
  });

  it('places the digits as the flow shows them (docs/flow.md §4 ticks: one per second from about 2 s)', () => {
    expect(window.slots.map(([from]) => from)).toEqual([2000, 3000, 4000, 5000]);
    expect(window.endMs).toBe(6500);
  });

  it('correlates series', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1);
    expect(pearson([1, 1, 1, 1], [1, 2, 3, 4])).toBeNull();
  });
});
