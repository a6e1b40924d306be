import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFaceVideo, type FaceVideoOptions } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseVideo } from '../../src/features/face-video/analyse.js';
import { challengeWindow, judgeLiveness, livenessSignals, type LivenessVerdict, type PromptSignal } from '../../src/features/face-video/liveness.js';
import { withPrompts, type ChallengeSchedule } from '../../src/features/face-video/schedule.js';
import { noSpeechRecognizer } from '../../src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import type { FaceEngine } from '../../src/engines/face/types.js';
import { decodeMedia } from '../../src/engines/media/decode.js';

// Generated face videos reading a code on its schedule, then asked to turn the head (MOVIMIENTOS_VIDEO_TOKEN):
// one makes the asked turns, one turns the other way, one keeps reading's pose. Judged from the tracked landmarks.
const asked: ChallengeSchedule = withPrompts({ digitsMs: [1830, 3010, 3880, 5650], stopMs: 7850 }, ['left', 'right']);
const base: FaceVideoOptions = { faceId: 'fa-s6-b', kind: 'live', code: '4729', seed: 'prompts', digitTimesMs: asked.digitsMs, reactionMs: 420, durationMs: asked.stopMs };
const turns = (sides: ReadonlyArray<'left' | 'right'>) => asked.prompts!.map((p, i) => ({ motion: sides[i]!, atMs: p.atMs + 450 }));

let engine: FaceEngine;
let dir: string;
const judged: Record<string, { verdict: LivenessVerdict; prompts: PromptSignal[] }> = {};

beforeAll(async () => {
  engine = await createFaceEngine();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-prompts-'));
  const cases: Record<string, FaceVideoOptions> = {
    asked: { ...base, motions: turns(['left', 'right']) },
    otherWay: { ...base, motions: turns(['right', 'left']) },
    none: base,
  };
  for (const [name, options] of Object.entries(cases)) {
    const files = await writeFaceVideo({ ...options, outDir: dir, name, format: 'mp4' });
    const media = await decodeMedia({ buffer: await readFile(files.video) });
    const window = challengeWindow(asked);
    const { measures } = await analyseVideo(engine, media, null, { code: '4729', threshold: 1, speech: noSpeechRecognizer, window });
    const signals = livenessSignals(measures, media.thumbnails, media.audio ? { stepMs: media.audio.envelopeStepMs, rms: media.audio.envelope } : null, window);
    judged[name] = { verdict: judgeLiveness(signals), prompts: signals.prompts ?? [] };
  }
}, 600_000);

afterAll(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('motion prompts checked on generated face videos', () => {
  it('a reading followed by the asked head turns is live', () => {
    expect(judged.asked!.verdict, JSON.stringify(judged.asked)).toEqual({ kind: 'live' });
    expect(judged.asked!.prompts.map((p) => p.done)).toEqual([true, true]);
  });

  it('the same reading without the turns, or turning the other way, is refused as the phrase failure', () => {
    for (const name of ['none', 'otherWay']) {
      const { verdict } = judged[name]!;
      expect(verdict.kind, `${name}: ${JSON.stringify(judged[name])}`).toBe('not_shown');
      expect(verdict.kind === 'not_shown' && verdict.reason).toMatch(/^the head turn asked/);
    }
  });
});
