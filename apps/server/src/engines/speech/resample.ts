/** Whisper's input rate. */
export const WHISPER_RATE = 16_000;

/**
 * 16-bit mono PCM as float samples in [-1, 1] at `targetRate`, linearly interpolated when the rates differ (the
 * media decoder already writes 16 kHz, so this is normally a plain conversion). Pure.
 */
export function toFloatSamples(samples: Int16Array, sampleRate: number, targetRate = WHISPER_RATE): Float32Array {
  if (!(sampleRate > 0)) throw new RangeError(`invalid sample rate ${sampleRate}`);
  if (sampleRate === targetRate) return Float32Array.from(samples, (s) => s / 32768);
  const length = Math.floor((samples.length * targetRate) / sampleRate);
  const out = new Float32Array(length);
  const step = sampleRate / targetRate;
  for (let i = 0; i < length; i += 1) {
    const position = i * step;
    const left = Math.floor(position);
    const right = Math.min(left + 1, samples.length - 1);
    const fraction = position - left;
    out[i] = (samples[left]! * (1 - fraction) + samples[right]! * fraction) / 32768;
  }
  return out;
}
