import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { installedVoices, RECORDED_VOICES, writeFaceVideo, type RecordedVoice } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseVideo } from '../../src/features/face-video/analyse.js';
import { challengeWindow, judgeLiveness, livenessSignals, livenessThresholds, replaySignals, type LivenessVerdict } from '../../src/features/face-video/liveness.js';
import type { ChallengeSchedule } from '../../src/features/face-video/schedule.js';
import { noSpeechRecognizer } from '../../src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import type { FaceEngine } from '../../src/engines/face/types.js';
import { decodeMedia } from '../../src/engines/media/decode.js';

// Genuine readings in real people's recorded voices (the Spanish digits of Debian's Asterisk prompts, read where the
// packages install them; scripts/ensure-tools.mjs installs them): each digit as that person said it, started a
// reader's reaction after it appears. Live on their own schedule; the same recording judged against another
// session's schedule is refused. Skipped, with a message, on a machine without the voices.
const voices = installedVoices();
if (voices.length === 0) console.warn(`no recorded voice installed (${RECORDED_VOICES.map((v) => v.pkg).join(', ')}): the human-voice liveness tests are skipped`);

const issued: ChallengeSchedule = { digitsMs: [1940, 3120, 4890, 5780], stopMs: 7980 };
// Another session's schedule: same first digit, intervals 0.6 s apart from these.
const other: ChallengeSchedule = { digitsMs: [1940, 3720, 4890, 6380], stopMs: 8580 };

let engine: FaceEngine;
let dir: string;
const verdicts = new Map<string, { own: LivenessVerdict; other: LivenessVerdict }>();

async function judgeBoth(voice: RecordedVoice, code: string, reactionMs: number[]) {
  const name = `voice-${voice.name}`;
  const files = await writeFaceVideo({
    faceId: 'fa-s6-c',
    kind: 'live',
    code,
    seed: name,
    digitTimesMs: issued.digitsMs,
    reactionMs,
    durationMs: issued.stopMs,
    voice,
    outDir: dir,
    name,
    format: 'mp4',
  });
  const media = await decodeMedia({ buffer: await readFile(files.video) });
  const { measures, screen } = await analyseVideo(engine, media, null, { code: '0000', threshold: 1, speech: noSpeechRecognizer, window: challengeWindow(issued) });
  const audio = media.audio ? { stepMs: media.audio.envelopeStepMs, rms: media.audio.envelope } : null;
  const replay = replaySignals(media.thumbnails);
  const verdict = (schedule: ChallengeSchedule) => judgeLiveness({ ...livenessSignals(measures, media.thumbnails, audio, challengeWindow(schedule), livenessThresholds, replay), screen });
  return { own: verdict(issued), other: verdict(other) };
}

beforeAll(async () => {
  if (voices.length === 0) return;
  engine = await createFaceEngine();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-voices-'));
  // Codes holding every digit between them, read at a quick and at a late reader's pace.
  const readings: Array<[string, number[]]> = [
    ['4729', [380, 430, 350, 410]],
    ['8051', [820, 760, 840, 790]],
    ['3696', [560, 610, 540, 600]],
  ];
  for (const voice of voices) {
    for (const [code, reactionMs] of readings) verdicts.set(`${voice.name} ${code}`, await judgeBoth(voice, code, reactionMs));
  }
}, 600_000);

afterAll(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(voices.length === 0)('genuine readings in recorded human voices (issue 18)', () => {
  it('are live on the schedule they follow', () => {
    for (const [reading, { own }] of verdicts) expect({ reading, own }).toEqual({ reading, own: { kind: 'live' } });
  });

  it('are refused against another session schedule', () => {
    for (const [reading, v] of verdicts) expect({ reading, other: v.other.kind }).toEqual({ reading, other: 'not_shown' });
  });
});
