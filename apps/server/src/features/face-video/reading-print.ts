/**
 * A reading's print: where the sound of each answer of an accepted face video sits in time (its energy centroid,
 * from the first answer's) and how spread it is (the energy-weighted deviation around that centroid), on the
 * telephone band's loudness (engines/media/speech-band.ts). A recording of that reading played again — injected as
 * recorded, re-encoded, quieter, through a phone's speaker into a microphone, timed to another session's first digit
 * — keeps these to a few milliseconds, because they weigh the whole word above the noise floor instead of the moment
 * it crosses a loudness threshold; another reading by the same person, made for another random schedule, does not
 * (its answers follow that schedule). So a new video whose print repeats one already accepted for this holder is
 * that recording again (docs/decisions.md "A reading replayed from an earlier session"). Pure.
 */
import type { AudioEnvelope, Utterance } from './liveness.js';

export interface ReadingPrint {
  /** Each answer's energy centroid after the first answer's (ms): the first is 0. */
  centresMs: number[];
  /** Each answer's energy-weighted standard deviation in time (ms). */
  spreadsMs: number[];
}

export const printTolerance = {
  /**
   * Centroids agree within this. Measured (bench liveness): the 66 accepted genuine recordings re-captured (0.4 of
   * the loudness, a 200 Hz high-pass, pink noise, AAC at 64 kb/s) moved at most 7 ms; the real talking clip's
   * running speech, a harder case than answers with gaps, at most 24 ms. Two readings made for two random schedules
   * differ by the schedules' own intervals (drawn over 1.5 s each).
   */
  centreMs: 40,
  /** Spreads agree within this (the same re-captures: at most 5 ms, the real clip 13 ms; words spread 80-350 ms). */
  spreadMs: 30,
} as const;

/** How far around each answer its sound is weighed: from just before its onset to just before the next one's. */
const lead = { beforeMs: 150, maxMs: 1000 } as const;

/** The print of a reading's answers in a loudness envelope (the telephone band's); undefined for fewer than two answers or no sound. */
export function readingPrint(answers: readonly Utterance[], envelope: AudioEnvelope | null): ReadingPrint | undefined {
  if (answers.length < 2 || !envelope || envelope.rms.length === 0) return undefined;
  const sorted = [...envelope.rms].sort((a, b) => a - b);
  const floor = sorted[Math.floor(sorted.length * 0.2)] ?? 0;
  const step = envelope.stepMs;
  const moments = answers.map((u, k) => {
    const end = Math.min(u.onMs + lead.maxMs, (answers[k + 1]?.onMs ?? Infinity) - lead.beforeMs);
    const from = Math.max(0, Math.floor((u.onMs - lead.beforeMs) / step));
    const to = Math.min(envelope.rms.length, Math.ceil(end / step));
    let weight = 0;
    let sum = 0;
    for (let i = from; i < to; i += 1) {
      const w = Math.max(0, envelope.rms[i]! - floor);
      weight += w;
      sum += w * (i + 0.5) * step;
    }
    if (weight === 0) return undefined;
    const centre = sum / weight;
    let variance = 0;
    for (let i = from; i < to; i += 1) variance += Math.max(0, envelope.rms[i]! - floor) * ((i + 0.5) * step - centre) ** 2;
    return { centre, spread: Math.sqrt(variance / weight) };
  });
  if (moments.some((m) => m === undefined)) return undefined;
  const first = moments[0]!.centre;
  return { centresMs: moments.map((m) => Math.round(m!.centre - first)), spreadsMs: moments.map((m) => Math.round(m!.spread)) };
}

/** Whether two prints are one reading (same number of answers, every centroid and spread within the tolerance). */
export function samePrint(a: ReadingPrint, b: ReadingPrint, t: typeof printTolerance = printTolerance): boolean {
  if (a.centresMs.length !== b.centresMs.length || a.spreadsMs.length !== b.spreadsMs.length) return false;
  return a.centresMs.every((v, i) => Math.abs(v - b.centresMs[i]!) <= t.centreMs) && a.spreadsMs.every((v, i) => Math.abs(v - b.spreadsMs[i]!) <= t.spreadMs);
}

/** A print read back from storage; undefined when malformed. */
export function parsePrint(value: unknown): ReadingPrint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { centresMs, spreadsMs } = value as Record<string, unknown>;
  const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => Number.isInteger(n));
  if (!numbers(centresMs) || !numbers(spreadsMs) || centresMs.length !== spreadsMs.length || centresMs.length < 2) return undefined;
  return { centresMs, spreadsMs };
}
