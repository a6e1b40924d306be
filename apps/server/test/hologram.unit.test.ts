import { hologramFrames } from '@kyc/fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SampledFrames } from '../src/engines/hologram/decode.js';
import { findCard, measureHighlights } from '../src/engines/hologram/measure.js';

const W = 320;
const H = 180;

/** RGB frames of the fixture generator as greyscale, halved (what the decoder hands over). */
function toGrey(frames: Buffer[], width: number, height: number): SampledFrames {
  const w = width / 2;
  const h = height / 2;
  return {
    width: w,
    height: h,
    frames: frames.map((rgb) => {
      const out = new Uint8Array(w * h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = (2 * y * width + 2 * x) * 3;
          out[y * w + x] = Math.round(0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!);
        }
      }
      return out;
    }),
  };
}

/** A light card on a dark table, optionally with a bright spot that stays in the same place of the card. */
function syntheticFrames(count: number, options: { card?: boolean; fixedGlare?: boolean } = {}): SampledFrames {
  const frames: Uint8Array[] = [];
  for (let t = 0; t < count; t++) {
    const frame = new Uint8Array(W * H).fill(25);
    if (options.card !== false) {
      const x0 = 60 + (t % 5);
      const y0 = 30 + (t % 3);
      for (let y = y0; y < y0 + 120; y++) {
        for (let x = x0; x < x0 + 190; x++) {
          const print = (x * 7 + y * 13) % 23 === 0 ? 60 : 185;
          const glare = options.fixedGlare && Math.hypot(x - x0 - 60, y - y0 - 50) < 18;
          frame[y * W + x] = glare ? 252 : print;
        }
      }
    }
    frames.push(frame);
  }
  return { width: W, height: H, frames };
}

describe('card tracking', () => {
  it('finds the bright card and nothing on an empty table', () => {
    const { frames } = syntheticFrames(1);
    const box = findCard(frames[0]!, W, H);
    expect(box).toEqual({ x: 60, y: 30, width: 190, height: 120 });
    expect(findCard(new Uint8Array(W * H).fill(25), W, H)).toBeNull();
    // A thin bright line is not a card.
    const line = new Uint8Array(W * H).fill(25);
    line.fill(230, 90 * W, 91 * W);
    expect(findCard(line, W, H)).toBeNull();
  });
});

describe('specular highlight measure', () => {
  let holographic: SampledFrames;
  let flat: SampledFrames;
  beforeAll(async () => {
    const holo = await hologramFrames({ highlight: true, seconds: 3, fps: 8 });
    const plain = await hologramFrames({ highlight: false, seconds: 3, fps: 8 });
    holographic = toGrey(holo.frames, holo.video.width, holo.video.height);
    flat = toGrey(plain.frames, plain.video.width, plain.video.height);
  }, 60_000);

  it('a moving glare band sweeps the card: passed, with the highlight travelling', () => {
    const m = measureHighlights(holographic, 0.05);
    expect(m.outcome).toBe('passed');
    expect(m.framesTracked).toBe(m.framesAnalysed);
    expect(m.highlightChange).toBeGreaterThan(0.5);
    expect(m.highlightTravel).toBeGreaterThan(0.5);
    expect(Math.max(...m.highlightShare)).toBeGreaterThan(0.03);
    expect(m.card?.drift).toBeGreaterThan(0);
  });

  it('the same card without highlights: failed, nothing swept', () => {
    const m = measureHighlights(flat, 0.05);
    expect(m.outcome).toBe('failed');
    expect(m.framesTracked).toBe(m.framesAnalysed);
    expect(m.highlightChange).toBeLessThan(0.01);
    expect(m.detail).toMatch(/5% needed/);
  });

  it("a lamp's reflection fixed in the camera's view, over a card that drifts: no change", async () => {
    const lamp = await hologramFrames({ highlight: false, lampReflection: true, seconds: 3, fps: 8 });
    const m = measureHighlights(toGrey(lamp.frames, lamp.video.width, lamp.video.height), 0.05);
    expect(m.outcome).toBe('failed');
    expect(m.meanHighlightShare).toBeGreaterThan(0.005);
    expect(m.highlightChange).toBeLessThan(0.04);
  });

  it('a reflection that stays in place is part of the card, not a hologram', () => {
    const m = measureHighlights(syntheticFrames(24, { fixedGlare: true }), 0.05);
    expect(m.outcome).toBe('failed');
    expect(m.highlightChange).toBeLessThan(0.01);
  });

  it('without a card in enough frames nothing is measured', () => {
    const m = measureHighlights(syntheticFrames(12, { card: false }), 0.05);
    expect(m).toMatchObject({ outcome: 'not_checked', framesTracked: 0, framesAnalysed: 12, highlightChange: 0 });
  });

  it('honours the threshold', () => {
    const m = measureHighlights(holographic, 0.99);
    expect(m.outcome).toBe('failed');
    expect(m.threshold).toBe(0.99);
  });
});

describe('UMBRAL_HOLOGRAMA', () => {
  it('is a number from 0 to 1 for the grantor command', async () => {
    const { paramValueProblem } = await import('../src/domain/grantor-params.js');
    for (const ok of ['0', '0.05', '1', '1.0']) expect(paramValueProblem('UMBRAL_HOLOGRAMA', ok)).toBeNull();
    for (const bad of ['-0.1', '2', 'alto', '0,5']) expect(paramValueProblem('UMBRAL_HOLOGRAMA', bad)).toMatch(/0 to 1/);
  });
});

describe('decoding', () => {
  it('reports a missing ffmpeg as unavailable, not as a bad video', async () => {
    const { sampleFrames, FfmpegUnavailableError } = await import('../src/engines/hologram/decode.js');
    await expect(sampleFrames(Buffer.from('x'), { ffmpeg: '/nonexistent/ffmpeg' })).rejects.toBeInstanceOf(FfmpegUnavailableError);
  });
});
