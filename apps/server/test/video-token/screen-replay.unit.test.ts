import { renderFaceVideoFrames, type FaceVideoOptions } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLiveness, type LivenessSignals } from '../../src/features/face-video/liveness.js';
import { bandingStrength, moireStrength, screenSignals, screenThresholds, screenVerdict, type FaceBox, type ScreenFrame } from '../../src/features/face-video/screen-replay.js';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import type { FaceEngine, RgbImage } from '../../src/engines/face/types.js';

// Synthetic frames: a 640x480 picture with a "face" box in the middle, camera-like noise, and the one thing tested.
const W = 640;
const H = 480;
const BOX: FaceBox = [230, 120, 180, 230];

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function picture(paint: (x: number, y: number) => number, seed = 1, colour: (v: number, x: number, y: number) => [number, number, number] = (v) => [v, v, v]): RgbImage {
  const noise = seeded(seed);
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const v = paint(x, y) + (noise() - 0.5) * 6;
      const [r, g, b] = colour(v, x, y);
      const o = (y * W + x) * 3;
      data[o] = Math.max(0, Math.min(255, r));
      data[o + 1] = Math.max(0, Math.min(255, g));
      data[o + 2] = Math.max(0, Math.min(255, b));
    }
  }
  return { data, width: W, height: H };
}

/** A face-like blob: brighter ellipse with soft features, shifted by (dx, dy) to make frames differ. */
const scene = (dx: number, dy: number) => (x: number, y: number) => {
  const ex = (x - 320 - dx) / 90;
  const ey = (y - 235 - dy) / 115;
  const inFace = ex * ex + ey * ey < 1;
  return 70 + 0.05 * y + (inFace ? 80 + 15 * Math.sin((x - dx) / 23) * Math.cos((y - dy) / 31) : 0);
};

const frames = (paint: (k: number) => (x: number, y: number) => number): ScreenFrame[] =>
  Array.from({ length: 6 }, (_, k) => ({ image: picture(paint(k), k + 1), face: [BOX[0] + k, BOX[1], BOX[2], BOX[3]] as FaceBox }));

describe('screen-replay signals on synthetic frames', () => {
  const genuine = frames((k) => scene(k * 2, k));

  it('a plain moving face shows no screen evidence', () => {
    const s = screenSignals(genuine);
    expect(s.moire).toBeLessThan(screenThresholds.moire / 2);
    expect(s.banding).toBeLessThan(screenThresholds.banding / 2);
    expect(s.bezelSides).toBeLessThan(screenThresholds.bezelSides);
    expect(s.glare).toBeLessThan(screenThresholds.glare);
    expect(s.strong).toEqual([]);
    expect(s.verdict).toBe('none');
  });

  it('moiré: a faint grating off the axes over the face is an isolated spectral peak', () => {
    const grating = frames((k) => (x, y) => scene(k * 2, k)(x, y) * (1 + 0.05 * Math.sin(2 * Math.PI * (0.19 * x + 0.07 * y + k * 0.3))));
    expect(moireStrength(grating)).toBeGreaterThan(screenThresholds.moire * 2);
    expect(moireStrength(genuine)).toBeLessThan(screenThresholds.moire / 2);
  });

  it('moiré: a straight edge through the face (a collar, glasses), blurred as a lens does, is a streak, not a peak', () => {
    const edged = frames((k) => (x, y) => scene(k * 2, k)(x, y) + 40 / (1 + Math.exp(-(y - 240 - 0.4 * (x - 320)) / 0.8)));
    expect(moireStrength(edged)).toBeLessThan(screenThresholds.moire);
  });

  it('banding: bands rolling between frames are flagged; stripes that stay put (blinds behind a moving person) cancel out', () => {
    const pairs = (list: ScreenFrame[]) =>
      [
        [list[0]!, list[1]!],
        [list[2]!, list[3]!],
        [list[4]!, list[5]!],
      ] as const;
    const rolling = frames((k) => (x, y) => scene(k * 2, k)(x, y) * (1 + 0.04 * Math.sin(2 * Math.PI * (y / 21 + k * 0.37))));
    const striped = frames((k) => (x, y) => scene(k * 2, k)(x, y) + 12 * Math.sin(2 * Math.PI * (y / 21)));
    expect(bandingStrength(pairs(rolling))).toBeGreaterThan(screenThresholds.banding * 2);
    expect(bandingStrength(pairs(striped))).toBeLessThan(screenThresholds.banding);
  });

  it('bezel: a dark frame all round the face counts four sides; a doorway (two posts and a lintel) three', () => {
    const inFrame = (x: number, y: number, x0: number, y0: number, x1: number, y1: number, t: number) =>
      x >= x0 - t && x <= x1 + t && y >= y0 - t && y <= y1 + t && !(x >= x0 && x <= x1 && y >= y0 && y <= y1);
    const bezel = frames((k) => (x, y) => (inFrame(x, y, 150, 60, 490, 420, 14) ? 12 : scene(k * 2, k)(x, y)));
    const doorway = frames((k) => (x, y) => ((x >= 150 && x < 160) || (x >= 480 && x < 490) || (y >= 50 && y < 60 && x >= 150 && x < 490) ? 245 : scene(k * 2, k)(x, y)));
    expect(screenSignals(bezel).bezelSides).toBe(4);
    expect(screenSignals(bezel).strong).toContain('bezel');
    expect(screenSignals(doorway).bezelSides).toBeLessThanOrEqual(3);
    expect(screenSignals(doorway).strong).not.toContain('bezel');
  });

  it('dark frame: a near-black border all round the face is a closed dark frame; a lit doorway with a desk edge below is not', () => {
    const inFrame = (x: number, y: number, x0: number, y0: number, x1: number, y1: number, t: number) =>
      x >= x0 - t && x <= x1 + t && y >= y0 - t && y <= y1 + t && !(x >= x0 && x <= x1 && y >= y0 && y <= y1);
    const bezel = frames((k) => (x, y) => (inFrame(x, y, 150, 60, 490, 420, 14) ? 12 : scene(k * 2, k)(x, y)));
    // Four straight sides (two posts, a lintel, a desk edge), lit like the room: what bezelSides alone cannot tell from a screen.
    const doorwayAndDesk = frames((k) => (x, y) => (inFrame(x, y, 150, 60, 490, 420, 10) ? 225 : scene(k * 2, k)(x, y)));
    const screen = screenSignals(bezel);
    expect(screen.darkFrameSides).toBe(4);
    expect(screen.strong).toEqual(expect.arrayContaining(['bezel', 'dark_frame']));
    expect(screen.verdict).toBe('refuse');
    const room = screenSignals(doorwayAndDesk);
    expect(room.bezelSides).toBe(4);
    expect(room.darkFrameSides).toBe(0);
    expect(room.verdict, JSON.stringify(room)).toBe('none');
  });

  it('glare: a flat saturated blob beside the face is flagged', () => {
    const glare = frames((k) => (x, y) => (Math.hypot(x - 460, y - 150) < 60 ? 255 : scene(k * 2, k)(x, y)));
    expect(screenSignals(glare).glare).toBeGreaterThan(screenThresholds.glare);
  });

  it('needs agreeing evidence: one signal never refuses, two refuse, three are a spoof', () => {
    expect(screenVerdict(['bezel'])).toBe('none');
    expect(screenVerdict(['moire', 'bezel'])).toBe('refuse');
    expect(screenVerdict(['moire', 'banding', 'bezel'])).toBe('spoof');
  });

  it('costs little: a few tens of milliseconds on 640x480 frames', () => {
    screenSignals(genuine);
    const started = process.cpuUsage();
    screenSignals(genuine);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(200);
  });

  it('the liveness verdict: strong evidence refuses (an attempt), overwhelming evidence is a spoof', () => {
    const base = { frozen: false, looped: false } as LivenessSignals;
    const screen = screenSignals(genuine);
    expect(judgeLiveness({ ...base, screen: { ...screen, strong: ['moire', 'bezel'], verdict: 'refuse' } })).toEqual({ kind: 'not_shown', reason: 'the face was seen on a screen (moire, bezel)' });
    expect(judgeLiveness({ ...base, screen: { ...screen, strong: ['moire', 'banding', 'bezel'], verdict: 'spoof' } })).toEqual({ kind: 'spoof', reason: 'screen_replay' });
  });
});

// The generator's frames (packages/fixtures), as the decoder samples them (4 a second), faces found by the engine.
describe('screen-replay signals on generated face videos', () => {
  let engine: FaceEngine;
  beforeAll(async () => {
    engine = await createFaceEngine();
  }, 60_000);
  afterAll(async () => engine?.close());

  async function sampled(o: Omit<FaceVideoOptions, 'faceId'>): Promise<ScreenFrame[]> {
    const { frames: rendered, plan } = await renderFaceVideoFrames({ faceId: 'fa-s6-b', code: '4729', seed: 'screen-test', durationMs: 3000, fps: 4, ...o });
    return Promise.all(
      rendered.map(async (rgba) => {
        const data = new Uint8Array(plan.width * plan.height * 3);
        for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
          data[j] = rgba[i]!;
          data[j + 1] = rgba[i + 1]!;
          data[j + 2] = rgba[i + 2]!;
        }
        const image = { data, width: plan.width, height: plan.height };
        const faces = (await engine.analyse(image, 'track')).faces;
        return { image, face: faces[0]?.box ?? null };
      }),
    );
  }

  it('a genuine video (plain room, and in front of a doorway with blinds) shows no screen', async () => {
    for (const background of ['plain', 'busy'] as const) {
      const s = screenSignals(await sampled({ background }));
      expect(s.verdict, JSON.stringify(s)).toBe('none');
    }
  }, 120_000);

  it('the same video replayed on a phone with a visible moiré and refresh bands is refused', async () => {
    const s = screenSignals(await sampled({ screen: 'phone', screenLook: { scale: 0.62, moirePitch: 1.2, moireDepth: 0.08, glare: 0.6, bands: { periodPx: 24, depth: 0.05, speed: 1.3 } } }));
    expect(s.strong, JSON.stringify(s)).toEqual(expect.arrayContaining(['moire', 'bezel']));
    expect(s.verdict).not.toBe('none');
  }, 120_000);

  it('a reading replayed on a phone whose moiré the camera does not resolve and without bands is still refused (dark frame)', async () => {
    const s = screenSignals(await sampled({ screen: 'phone', screenLook: { scale: 0.6, moirePitch: 1, moireDepth: 0.03, glare: 0.4, tiltDeg: 3, shear: -0.05, bezel: 10 } }));
    expect(s.moire, JSON.stringify(s)).toBeLessThan(screenThresholds.moire);
    expect(s.banding).toBeLessThan(screenThresholds.banding);
    expect(s.strong).toEqual(expect.arrayContaining(['bezel', 'dark_frame']));
    expect(s.verdict).toBe('refuse');
  }, 120_000);
});
