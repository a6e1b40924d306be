import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { faceMessages } from '@kyc/contracts';
import { faceFrameJpeg, generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind, type VideoTokenDecision } from '../src/domain/evidence-kinds.js';
import { ffmpegBinary } from '../src/engines/media/decode.js';
import { recordCaseIdentity } from '../src/features/console/case-index.js';
import { findRepeatedReading, recordReading } from '../src/features/face-video/readings-store.js';
import { latestEvidence } from '../src/store/evidence.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, journeyConsents } from './support/journey.js';
import { followsTestSchedule, testSchedule, testScheduleEnv } from './support/schedule.js';
import { faceVideoApi } from './support/face-video-api.js';

// A reading replayed from the holder's earlier session (docs/decisions.md "A reading replayed from an earlier
// session"): every code here carries the test-only fixed schedule, so the replay passes the timing check and only
// the reading's print can tell it from a new reading.
type Headers = ReturnType<typeof trxHeaders>;
const SEED = 22;

let dir: string;
let front: Buffer;
let photo: Buffer;
const videos: Record<'reading' | 'replay' | 'newReading', Buffer> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-token-replay-'));
  await generateFixtureSet({ outDir: dir, seed: SEED, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
  const truth = JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  front = await readFile(path.join(dir, 'ine-000-front-clean.png'));
  const faceId = truth.face!.id;
  photo = await faceFrameJpeg(faceId);
  const [reading, newReading] = await Promise.all([
    writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'live', outDir: dir, seed: SEED }),
    // The same person on another day: the same schedule, their own delays.
    writeFaceVideo({ digitTimesMs: testSchedule.digitsMs, reactionMs: [560, 430, 520, 380], faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4', name: 'new-reading' }),
  ]);
  // The recording of the first session re-encoded (MPEG-4/AAC instead of VP8/Opus), its sound as a phone's speaker
  // and a room give it to a microphone: 0.4 of the loudness, no bass, pink noise.
  const replay = path.join(dir, 'replay.mp4');
  await promisify(execFile)(ffmpegBinary(), [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', reading.video, '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.004:seed=3'],
    ...['-filter_complex', '[0:a]volume=0.4,highpass=f=200[a];[a][1:a]amix=inputs=2:duration=first:normalize=0[out]'],
    ...['-map', '0:v', '-map', '[out]', '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'aac', '-b:a', '64k', replay],
  ]);
  videos.reading = await readFile(reading.video);
  videos.replay = await readFile(replay);
  videos.newReading = await readFile(newReading.video);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('a reading replayed from an earlier session ($name)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine, testScheduleEnv);
  }, 60_000);
  afterAll(async () => t?.close());

  const { readFront, otp, videoToken, attempts } = faceVideoApi(() => t);

  /** A new transaction of the same holder: consents given, the same ID front read (so the same CURP). */
  async function session() {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, journeyConsents);
    await readFront(headers, front);
    return headers;
  }

  async function faceVideo(headers: Headers, video: Buffer, filename: string) {
    const issued = await otp(headers, photo);
    expect(issued.statusCode, issued.body).toBe(200);
    return videoToken(headers, issued.json().payload.codes as { created: string; expire: string }, video, filename);
  }

  const decision = async (uuidTrx: string) => {
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const found = await latestEvidence(t.db, cipher, uuidTrx, evidenceKind.videoToken);
    return { id: found!.id, ...(found!.payload as VideoTokenDecision & { outcome: string; detail?: string }) };
  };
  const prints = (uuidTrx: string) => t.db.selectFrom('video_token_readings').select(['evidence_id', 'print_enc']).where('uuid_trx', '=', uuidTrx).execute();

  it("refuses the recording of the holder's accepted session played into a new one, every time; accepts the holder's new reading", async () => {
    // The first session: accepted, its reading's print kept (encrypted) with the evidence.
    const first = await session();
    const accepted = await faceVideo(first, videos.reading, 'video.webm');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const firstDecision = await decision(first.transaccion);
    expect(firstDecision.earlierReadings).toEqual({ compared: 0, repeated: null, refused: false });
    const kept = await prints(first.transaccion);
    expect(kept.map((p) => p.evidence_id)).toEqual([firstDecision.id]);
    expect(kept[0]!.print_enc).not.toContain('onsetsMs');

    // A new session with the same ID: that recording, re-encoded and quieter, fits this code's schedule (the same
    // fixed one) and the face matches, but it is the first session's reading: the phrase failure, one attempt counted.
    const second = await session();
    const replayed = await faceVideo(second, videos.replay, 'video.mp4');
    expect(replayed.statusCode, replayed.body).toBe(400);
    expect(replayed.json()).toMatchObject({ message: faceMessages.phrase, message_client: faceMessages.phrase });
    const refused = await decision(second.transaccion);
    expect(refused).toMatchObject({
      outcome: 'not_live',
      match: false,
      earlierReadings: { compared: 1, repeated: { uuidTrx: first.transaccion.toLowerCase(), evidenceId: firstDecision.id }, refused: true },
    });
    expect(refused.liveness).toMatchObject({ passed: false, spoof: false });
    expect(refused.detail).toContain(`evidence ${firstDecision.id}`);
    expect(refused.faceScore).toBeGreaterThan(refused.threshold);
    expect((await attempts(second.transaccion)).attempts).toEqual({ video_token: 1 });
    expect(await prints(second.transaccion)).toEqual([]);
    // Sent again with each new code, it is refused each time.
    expect((await faceVideo(second, videos.replay, 'video.mp4')).statusCode).toBe(400);
    expect((await attempts(second.transaccion)).attempts).toEqual({ video_token: 2 });

    // The holder's new reading in a third session: accepted (compared with the first, not the same reading).
    const third = await session();
    const fresh = await faceVideo(third, videos.newReading, 'video.mp4');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await decision(third.transaccion)).earlierReadings).toEqual({ compared: 1, repeated: null, refused: false });
    // ...and that reading sent again in the same session: its own recording played again.
    const again = await faceVideo(third, videos.newReading, 'video.mp4');
    expect(again.statusCode, again.body).toBe(400);
    expect((await decision(third.transaccion)).earlierReadings).toMatchObject({ compared: 2, refused: true });
  }, 300_000);

  it("compares a reading only with the same holder's: this transaction and those whose ID carried the same CURP", async () => {
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const print = { centresMs: [0, 1210, 3080, 3850], spreadsMs: [120, 140, 110, 130] };
    const trx = async (curp: string | null) => {
      const headers = trxHeaders();
      await acceptConsents(t.app, headers, journeyConsents);
      const uuidTrx = headers.transaccion.toLowerCase();
      if (curp) await recordCaseIdentity(t.db, cipher, { uuidTrx, grantorId: demoId, curp });
      return uuidTrx;
    };
    const [holder, sameHolder, otherHolder, noCurp] = [await trx('GOMA800101HDFRRN09'), await trx('GOMA800101HDFRRN09'), await trx('PEMJ920202MDFRRS05'), await trx(null)];
    const now = new Date();
    await recordReading(t.db, cipher, { uuidTrx: holder, grantorId: demoId, evidenceId: 'ev-holder', print }, now);
    await recordReading(t.db, cipher, { uuidTrx: otherHolder, grantorId: demoId, evidenceId: 'ev-other', print }, now);
    const scope = (uuidTrx: string) => ({ uuidTrx, grantorId: demoId });
    expect(await findRepeatedReading(t.db, cipher, scope(sameHolder), print)).toEqual({ compared: 1, repeated: { uuidTrx: holder, evidenceId: 'ev-holder' } });
    expect(await findRepeatedReading(t.db, cipher, scope(holder), { ...print, centresMs: [0, 1270, 3080, 3850] })).toEqual({ compared: 1, repeated: null });
    expect(await findRepeatedReading(t.db, cipher, scope(noCurp), print)).toEqual({ compared: 0, repeated: null });
    // Another grantor's transaction with the same CURP is not the same holder here (the blind index is per grantor).
    expect(await findRepeatedReading(t.db, cipher, { uuidTrx: sameHolder, grantorId: '00000000-0000-4000-8000-00000000beef' }, print)).toEqual({ compared: 0, repeated: null });
  });

  it('only records the repeated reading when the grantor turns RECHAZAR_LECTURA_REPETIDA off', async () => {
    await writeParams(t, demoId, { RECHAZAR_LECTURA_REPETIDA: 'false' });
    try {
      const headers = await session();
      const res = await faceVideo(headers, videos.replay, 'video.mp4');
      expect(res.statusCode, res.body).toBe(200);
      const recorded = await decision(headers.transaccion);
      expect(recorded.outcome).toBe('match');
      expect(recorded.earlierReadings?.refused).toBe(false);
      expect(recorded.earlierReadings?.repeated).not.toBeNull();
    } finally {
      await writeParams(t, demoId, { RECHAZAR_LECTURA_REPETIDA: 'true' });
    }
  }, 300_000);
});
