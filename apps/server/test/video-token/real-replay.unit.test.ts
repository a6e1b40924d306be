import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseVideo } from '../../src/features/face-video/analyse.js';
import { challengeWindow, judgeLiveness, livenessSignals, livenessThresholds, replaySignals } from '../../src/features/face-video/liveness.js';
import { drawSchedule } from '../../src/features/face-video/schedule.js';
import { noSpeechRecognizer } from '../../src/engines/speech/spoken-code.js';
import { createFaceEngine } from '../../src/engines/face/engine.js';
import type { FaceEngine } from '../../src/engines/face/types.js';
import { decodeMedia, type DecodedMedia } from '../../src/engines/media/decode.js';

// A real (not generated) 10 s talking video, read in place from the shared development data, never copied.
const here = path.dirname(fileURLToPath(import.meta.url));
const REAL = path.resolve(here, '../../../../../shared/data/real-dev/faces/face_recognition/video_lin_manuel_miranda_wh_10s.mp4');
const present = existsSync(REAL);
if (!present) console.warn(`real talking video not found at ${REAL}: the replay test is skipped`);

let engine: FaceEngine;
let media: DecodedMedia;
let measures: Awaited<ReturnType<typeof analyseVideo>>['measures'];

beforeAll(async () => {
  if (!present) return;
  engine = await createFaceEngine();
  media = await decodeMedia({ buffer: await readFile(REAL) });
  measures = (await analyseVideo(engine, media, null, { code: '0000', threshold: 1, speech: noSpeechRecognizer, window: challengeWindow(drawSchedule()) })).measures;
}, 300_000);

afterAll(async () => engine?.close());

describe.skipIf(!present)('a real talking video replayed as the face video (issue 18)', () => {
  it('is refused for every one of 300 random schedules, never as live', () => {
    const replay = replaySignals(media.thumbnails);
    const audio = media.audio ? { stepMs: media.audio.envelopeStepMs, rms: media.audio.envelope } : null;
    const verdicts = new Set<string>();
    for (let k = 0; k < 300; k += 1) {
      const verdict = judgeLiveness(livenessSignals(measures, media.thumbnails, audio, challengeWindow(drawSchedule()), livenessThresholds, replay));
      expect(verdict.kind).not.toBe('live');
      verdicts.add(verdict.kind === 'live' ? 'live' : verdict.reason.replace(/\(.*\)|\d+/g, ''));
    }
    console.log(`real talking video, 300 random schedules: ${[...verdicts].join(' | ')}`);
  });
});
