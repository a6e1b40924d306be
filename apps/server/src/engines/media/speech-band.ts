/**
 * The loudness envelope of the telephone band (300-3400 Hz): what a phone's speaker plays of a voice and a
 * microphone gives back of it. Used where the same speech must measure alike before and after such a trip (the
 * reading print, features/face-video/reading-print.ts): the bass a small speaker drops and the hiss above the band no
 * longer move it. Two cascaded second-order Butterworth sections each side (24 dB per octave), the RBJ cookbook's
 * coefficients.
 */
import { energyEnvelope } from './decode.js';

export const SPEECH_BAND_HZ = [300, 3400] as const;

type Pass = 'high' | 'low';

function secondOrder(input: Float64Array, sampleRate: number, cornerHz: number, pass: Pass): Float64Array<ArrayBuffer> {
  const w = (2 * Math.PI * cornerHz) / sampleRate;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
  const b0 = pass === 'high' ? (1 + cos) / 2 : (1 - cos) / 2;
  const b1 = pass === 'high' ? -(1 + cos) : 1 - cos;
  const a0 = 1 + alpha;
  const a1 = -2 * cos;
  const a2 = 1 - alpha;
  const out = new Float64Array(input.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < input.length; i += 1) {
    const x = input[i]!;
    const y = (b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    out[i] = y;
  }
  return out;
}

/** The 20 ms RMS envelope (0..1 of full scale) of the samples' telephone band. */
export function speechBandEnvelope(audio: { samples: Int16Array; sampleRate: number }, stepMs = 20): { stepMs: number; rms: number[] } {
  const [low, high] = SPEECH_BAND_HZ;
  let signal: Float64Array<ArrayBuffer> = Float64Array.from(audio.samples);
  for (let k = 0; k < 2; k += 1) signal = secondOrder(signal, audio.sampleRate, low, 'high');
  if (high < audio.sampleRate / 2) for (let k = 0; k < 2; k += 1) signal = secondOrder(signal, audio.sampleRate, high, 'low');
  return { stepMs, rms: energyEnvelope(signal, audio.sampleRate, stepMs) };
}
