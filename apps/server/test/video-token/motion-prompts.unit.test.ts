import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFaceVideo, type FaceVideoOptions } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseVideo } from '../../src/features/face-video/analyse.js';
import { challengeWindow, judgeLiveness, livenessSignals, promptSignals, type LivenessVerdict, type PromptSignal } from '../../src/features/face-video/liveness.js';
import { drawSchedule, withPrompts, type ChallengeSchedule } from '../../src/features/face-video/schedule.js';
import { noSpeechRecognizer } from '../../src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import type { FaceEngine } from '../../src/engines/face/types.js';
import { decodeMedia } from '../../src/engines/media/decode.js';

// Generated face videos reading a code on its schedule, then asked to turn the head (MOVIMIENTOS_VIDEO_TOKEN), of a
// face photographed nearly frontally (fa-s6-c: a photo already turned ~18°, as fa-s6-b's, turned 30° more that way
// reads only ~0.1 on the measure; docs/decisions.md "Head-turn prompts..."):
// one makes the asked turns (30°, half a second after each prompt), one turns the other way, one keeps reading's
// pose, one keeps it with a restless head. Judged from the tracked landmarks. Then the real 10 s talking clip of
// real-dev (read in place, skipped when absent): its natural head motion must not pass for an asked turn, while its
// own real head turn, after a calm reading, does.
const asked: ChallengeSchedule = withPrompts({ digitsMs: [1830, 3010, 3880, 5650], stopMs: 7850 }, ['left', 'right']);
const base: FaceVideoOptions = { faceId: 'fa-s6-c', kind: 'live', code: '4729', seed: 'prompts', digitTimesMs: asked.digitsMs, reactionMs: 420, durationMs: asked.stopMs };
const turns = (sides: ReadonlyArray<'left' | 'right'>) => asked.prompts!.map((p, i) => ({ motion: sides[i]!, atMs: p.atMs + 450 }));

let engine: FaceEngine;
let dir: string;
const judged: Record<string, { verdict: LivenessVerdict; prompts: PromptSignal[] }> = {};

const here = path.dirname(fileURLToPath(import.meta.url));
const REAL = path.resolve(here, '../../../../../shared/data/real-dev/faces/face_recognition/video_lin_manuel_miranda_wh_10s.mp4');
const realPresent = existsSync(REAL);
if (!realPresent) console.warn(`real talking video not found at ${REAL}: its motion-prompt tests are skipped`);
let real: Array<{ timeMs: number; noseTurn: number }> = [];

beforeAll(async () => {
  engine = await createFaceEngine();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-prompts-'));
  const cases: Record<string, FaceVideoOptions> = {
    asked: { ...base, motions: turns(['left', 'right']) },
    otherWay: { ...base, motions: turns(['right', 'left']) },
    none: base,
    restless: { ...base, motion: 2.5 },
  };
  for (const [name, options] of Object.entries(cases)) {
    const files = await writeFaceVideo({ ...options, outDir: dir, name, format: 'mp4' });
    const media = await decodeMedia({ buffer: await readFile(files.video) });
    const window = challengeWindow(asked);
    const { measures } = await analyseVideo(engine, media, null, { code: '4729', threshold: 1, speech: noSpeechRecognizer, window });
    const signals = livenessSignals(measures, media.thumbnails, media.audio ? { stepMs: media.audio.envelopeStepMs, rms: media.audio.envelope } : null, window);
    judged[name] = { verdict: judgeLiveness(signals), prompts: signals.prompts ?? [] };
  }
  if (realPresent) {
    const media = await decodeMedia({ buffer: await readFile(REAL) });
    const { measures } = await analyseVideo(engine, media, null, { code: '0000', threshold: 1, speech: noSpeechRecognizer, window: challengeWindow(drawSchedule()) });
    real = measures.flatMap((m) => (m.face ? [{ timeMs: m.timeMs, noseTurn: m.face.noseTurn }] : []));
  }
}, 900_000);

afterAll(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('motion prompts checked on generated face videos', () => {
  it('a reading followed by the asked head turns is live', () => {
    expect(judged.asked!.verdict, JSON.stringify(judged.asked)).toEqual({ kind: 'live' });
    expect(judged.asked!.prompts.map((p) => p.done)).toEqual([true, true]);
  });

  it('the same reading without the turns (steady or restless), or turning the other way, is refused as the phrase failure', () => {
    for (const name of ['none', 'restless', 'otherWay']) {
      const { verdict } = judged[name]!;
      expect(verdict.kind, `${name}: ${JSON.stringify(judged[name])}`).toBe('not_shown');
      expect(verdict.kind === 'not_shown' && verdict.reason).toMatch(/^the head turn asked/);
    }
  });
});

describe.skipIf(!realPresent)('motion prompts on the real talking clip (real-dev)', () => {
  it('its natural head motion passes for no asked turn: a prompt at every frame time from 1 s to 8 s, each side', () => {
    expect(real.length).toBeGreaterThan(15);
    const passed: string[] = [];
    for (let at = 1000; at <= 8000; at += 250) {
      for (const motion of ['left', 'right'] as const) if (promptSignals(real, [{ motion, atMs: at }])[0]!.done) passed.push(`${motion} ${at}`);
    }
    expect(passed).toEqual([]);
  });

  it('its own real head turn (to his right, out from 4.0 s, back at 5.5 s), after a calm reading, passes as an asked turn to the right, not to the left', () => {
    // A calm reading at the clip's level before the turn (0.03), swaying ±0.01, then the clip's frames from 3.5 s on,
    // placed so that the prompt appears 0.5-1 s before the turn starts (a reaction time).
    const calm = (promptAtMs: number) => Array.from({ length: promptAtMs / 250 }, (_, i) => ({ timeMs: i * 250, noseTurn: 0.03 + 0.01 * Math.sin(i) }));
    for (const reactionMs of [500, 750, 1000]) {
      const promptAtMs = 8000;
      const frames = [...calm(promptAtMs), ...real.filter((f) => f.timeMs >= 3500).map((f) => ({ timeMs: f.timeMs - 4000 + reactionMs + promptAtMs, noseTurn: f.noseTurn }))];
      const [right] = promptSignals(frames, [{ motion: 'right', atMs: promptAtMs }]);
      const [left] = promptSignals(frames, [{ motion: 'left', atMs: promptAtMs }]);
      expect(right, `reaction ${reactionMs} ms`).toMatchObject({ done: true });
      expect(right!.shift).toBeGreaterThan(0.25);
      expect(left!.done).toBe(false);
    }
  });
});
