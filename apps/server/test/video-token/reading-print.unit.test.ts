import { describe, expect, it } from 'vitest';
import { challengeWindow, livenessThresholds, scheduleSignals, utterances, type AudioEnvelope } from '../../src/features/face-video/liveness.js';
import { parsePrint, printTolerance, readingPrint, samePrint } from '../../src/features/face-video/reading-print.js';
import { drawSchedule, type ChallengeSchedule } from '../../src/features/face-video/schedule.js';
import { speechBandEnvelope } from '../../src/engines/media/speech-band.js';

const STEP = 20;
const LENGTH_MS = 14_000;

/**
 * A word as a loudness envelope: a quick rise, a vowel, a second syllable a little softer for two-syllable words,
 * a decay. `gain` scales it (a quieter replay), `noise` is added everywhere (a room), `tail` lengthens the decay.
 */
function word(atMs: number, lengthMs: number, gain = 1) {
  return (t: number) => {
    const x = (t - atMs) / lengthMs;
    if (x < 0 || x > 1.2) return 0;
    const shape = x < 0.1 ? x / 0.1 : x < 0.55 ? 1 : x < 0.95 ? 0.7 : Math.max(0, 0.7 - (x - 0.95) * 2.8);
    return 0.2 * gain * shape;
  };
}

function envelope(words: ReadonlyArray<(t: number) => number>, noise = 0.002): AudioEnvelope {
  return { stepMs: STEP, rms: Array.from({ length: LENGTH_MS / STEP }, (_, i) => noise + words.reduce((sum, w) => sum + w(i * STEP + STEP / 2), 0)) };
}

const mouth = (answersAt: readonly number[]) =>
  Array.from({ length: LENGTH_MS / 250 }, (_, i) => ({ timeMs: i * 250, opening: answersAt.some((a) => i * 250 >= a - 50 && i * 250 <= a + 500) ? 0.4 : 0.05 }));

/** The print of a reading of `lengths`-long words answering `schedule` `latencies` late. */
function printOf(schedule: ChallengeSchedule, latencies: readonly number[], lengths: readonly number[], replay: { gain?: number; noise?: number; shiftMs?: number } = {}) {
  const at = schedule.digitsMs.map((d, i) => d + latencies[i]! + (replay.shiftMs ?? 0));
  const env = envelope(
    at.map((a, i) => word(a, lengths[i]!, replay.gain)),
    replay.noise,
  );
  // As livenessSignals sets the loudness an utterance needs: above the recording's own noise floor.
  const quiet = [...env.rms].sort((a, b) => a - b)[Math.floor(env.rms.length * 0.2)]!;
  const floor = Math.max(livenessThresholds.speechMinRms, quiet * livenessThresholds.speechFloorRatio);
  const judged: ChallengeSchedule = replay.shiftMs ? { digitsMs: schedule.digitsMs.map((d) => d + replay.shiftMs!), stopMs: schedule.stopMs + replay.shiftMs } : schedule;
  const signals = scheduleSignals(utterances(env, floor, livenessThresholds), mouth(at), 0.05, challengeWindow(judged));
  return { signals, print: readingPrint(signals.answers, env) };
}

const schedule: ChallengeSchedule = { digitsMs: [1830, 3010, 4880, 5650], stopMs: 7850 };
const latencies = [420, 470, 400, 450];
const lengths = [400, 520, 380, 460];

describe('reading print (a reading replayed from an earlier session)', () => {
  it('is each answer’s energy centroid from the first one’s and its spread, from the answers the schedule check found', () => {
    const { signals, print } = printOf(schedule, latencies, lengths);
    expect(signals.followed).toBe(true);
    expect(signals.answers).toHaveLength(4);
    expect(print!.centresMs[0]).toBe(0);
    // The centroids follow the answers' onsets (each word's own shape moves it by a fraction of its length).
    const onsets = signals.answers.map((u) => u.onMs - signals.answers[0]!.onMs);
    for (const [i, c] of print!.centresMs.entries()) expect(Math.abs(c - onsets[i]! - (lengths[i]! - lengths[0]!) * 0.4)).toBeLessThan(60);
    expect(print!.spreadsMs.every((s) => s > 50 && s < 250)).toBe(true);
    expect(readingPrint(signals.answers.slice(0, 1), envelope([]))).toBeUndefined();
    expect(readingPrint(signals.answers, null)).toBeUndefined();
  });

  it('finds the same recording played again: quieter, over a room’s noise, timed to another session’s first digit', () => {
    const original = printOf(schedule, latencies, lengths).print!;
    for (const replay of [{ gain: 0.4 }, { gain: 0.5, noise: 0.006 }, { shiftMs: 600 }, { gain: 0.3, noise: 0.004, shiftMs: -300 }]) {
      const replayed = printOf(schedule, latencies, lengths, replay);
      expect(replayed.signals.followed, JSON.stringify(replay)).toBe(true);
      expect(samePrint(replayed.print!, original), JSON.stringify({ replay, original, replayed: replayed.print })).toBe(true);
    }
  });

  it('tells the same person’s new reading, made for another schedule, from the earlier one', () => {
    const earlier = printOf(schedule, latencies, lengths).print!;
    let alike = 0;
    const draws = 2000;
    for (let k = 0; k < draws; k += 1) {
      const next = drawSchedule(4);
      const { print } = printOf(next, latencies, lengths);
      if (print && samePrint(print, earlier)) alike += 1;
    }
    // Three intervals each within ±40 ms of this one's, out of 0.8-2.3 s: about 1 in 6,600 draws (the spreads are
    // this reader's own here, so they do not help).
    expect(alike).toBeLessThanOrEqual(2);
    // The same words said a little differently: another reading.
    const later = printOf(schedule, [420, 470 + printTolerance.centreMs + 20, 400, 450], lengths).print!;
    expect(samePrint(later, earlier)).toBe(false);
    const slower = printOf(
      schedule,
      latencies,
      lengths.map((l) => l * 1.6),
    ).print!;
    expect(samePrint(slower, earlier)).toBe(false);
    expect(samePrint({ centresMs: earlier.centresMs.slice(0, 3), spreadsMs: earlier.spreadsMs.slice(0, 3) }, earlier)).toBe(false);
  });

  it('reads back only a well-formed print', () => {
    expect(parsePrint({ centresMs: [0, 1200], spreadsMs: [110, 95] })).toEqual({ centresMs: [0, 1200], spreadsMs: [110, 95] });
    expect(parsePrint({ centresMs: [0], spreadsMs: [110] })).toBeUndefined();
    expect(parsePrint({ centresMs: [0, 1.5], spreadsMs: [110, 95] })).toBeUndefined();
    expect(parsePrint({ centresMs: [0, 1200], spreadsMs: [110] })).toBeUndefined();
    expect(parsePrint(null)).toBeUndefined();
  });

  it('weighs the telephone band: the bass a phone speaker drops and the hiss above the band barely count', () => {
    const rate = 16_000;
    const tone = (hz: number) => ({ sampleRate: rate, samples: Int16Array.from({ length: rate }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * hz * i) / rate))) });
    const level = (hz: number) => {
      const { rms, stepMs } = speechBandEnvelope(tone(hz));
      expect(stepMs).toBe(20);
      expect(rms).toHaveLength(50);
      return rms.slice(10).reduce((a, b) => a + b, 0) / (rms.length - 10);
    };
    const voice = level(1000);
    expect(voice).toBeGreaterThan(0.2);
    expect(level(80) / voice).toBeLessThan(0.03);
    expect(level(150) / voice).toBeLessThan(0.1);
    expect(level(7000) / voice).toBeLessThan(0.1);
  });
});
