import { describe, expect, it } from 'vitest';
import { toFloatSamples } from '../../src/engines/speech/resample.js';

describe('toFloatSamples: 16-bit PCM to Whisper input', () => {
  it('scales 16 kHz samples to [-1, 1] without resampling', () => {
    const out = toFloatSamples(Int16Array.from([0, 16384, -32768, 32767]), 16_000);
    expect(Array.from(out)).toEqual([0, 0.5, -1, 32767 / 32768]);
  });

  it('resamples 48 kHz to 16 kHz (a third of the samples, the same waveform)', () => {
    const rate = 48_000;
    const input = Int16Array.from({ length: rate }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / rate)));
    const out = toFloatSamples(input, rate);
    expect(out.length).toBe(16_000);
    for (const i of [0, 100, 5000, 15_999]) expect(out[i]).toBeCloseTo((10_000 / 32768) * Math.sin((2 * Math.PI * 440 * i) / 16_000), 3);
  });

  it('interpolates when upsampling 8 kHz', () => {
    const out = toFloatSamples(Int16Array.from([0, 3200, 6400]), 8000);
    expect(Array.from(out).map((v) => Math.round(v * 32768))).toEqual([0, 1600, 3200, 4800, 6400, 6400]);
  });

  it('refuses a non-positive rate', () => {
    expect(() => toFloatSamples(new Int16Array(4), 0)).toThrow(RangeError);
  });
});
