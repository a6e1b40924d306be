import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorTexts, faceMessages } from '@kyc/contracts';
import { faceFrameJpeg, generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind, type VideoTokenDecision } from '../src/domain/evidence-kinds.js';
import { latestEvidence } from '../src/store/evidence.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, journeyConsents, usableFront } from './support/journey.js';
import { followsTestSchedule, repeatedReadingsAllowed, testSchedule, testScheduleEnv } from './support/schedule.js';
import { faceVideoApi } from './support/face-video-api.js';

type Headers = ReturnType<typeof trxHeaders>;
// Seed 22 puts face fa-s6-b on the INE; fa-s3-a is somebody else.
const SEED = 22;
const OTHER_FACE = 'fa-s3-a';
const UPLOAD_LIMIT = 4_000_000;

let dir: string;
let front: { truth: GroundTruth; image: Buffer };
let photo: Buffer;
let groupPhoto: Buffer;
let maskedPhoto: Buffer;
const videos: Record<'live' | 'other' | 'still' | 'masked' | 'otherSchedule' | 'continuous', Buffer> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-token-'));
  await generateFixtureSet({ outDir: dir, seed: SEED, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
  front = {
    truth: JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth,
    image: await readFile(path.join(dir, 'ine-000-front-clean.png')),
  };
  const faceId = front.truth.face!.id;
  photo = await faceFrameJpeg(faceId);
  const other = await faceFrameJpeg(OTHER_FACE);
  // Two people side by side: the middle of each frame.
  const middle = (jpeg: Buffer) => sharp(jpeg).extract({ left: 160, top: 0, width: 320, height: 480 }).toBuffer();
  groupPhoto = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#888' } })
    .composite([
      { input: await middle(photo), left: 0, top: 0 },
      { input: await middle(other), left: 320, top: 0 },
    ])
    .jpeg()
    .toBuffer();
  maskedPhoto = await faceFrameJpeg(faceId, { cover: 'surgical' });
  const [live, otherLive, still, masked, otherSchedule, continuous] = await Promise.all([
    writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'live', outDir: dir, seed: SEED }),
    // MP4 (as iPhones send) for these: faster to encode than VP8.
    writeFaceVideo({ ...followsTestSchedule, faceId: OTHER_FACE, kind: 'live', outDir: dir, seed: SEED, format: 'mp4' }),
    writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'still', outDir: dir, seed: SEED, format: 'mp4' }),
    // The holder reading the code with a surgical mask on.
    writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4', cover: 'surgical' }),
    // The holder reading at another session's times, and reading digits one a second from 0.5 s (issue 18's replay).
    writeFaceVideo({ faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4', name: 'other-schedule', digitTimesMs: [2300, 3200, 4900, 5800], reactionMs: 420 }),
    writeFaceVideo({ faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4', name: 'continuous', code: '83619274', firstDigitMs: 500, digitStepMs: 1000, reactionMs: 0 }),
  ]);
  videos.otherSchedule = await readFile(otherSchedule.video);
  videos.continuous = await readFile(continuous.video);
  videos.live = await readFile(live.video);
  videos.other = await readFile(otherLive.video);
  videos.still = await readFile(still.video);
  videos.masked = await readFile(masked.video);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('face video token ($name)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine, { UPLOAD_LIMIT: String(UPLOAD_LIMIT), ...testScheduleEnv });
    // One generated reading of the holder is sent in several transactions here (the camera record, the attempts...).
    await writeParams(t, demoId, repeatedReadingsAllowed);
  }, 60_000);
  afterAll(async () => t?.close());

  const { readFront, otp, videoToken, attempts } = faceVideoApi(() => t);

  async function code(headers: Headers) {
    const res = await otp(headers, photo);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().payload.codes as { code: string; created: string; expire: string; schedule: unknown };
  }

  /** A new transaction whose holder consented and whose ID front was read. */
  async function consentedWithFront() {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, journeyConsents);
    await readFront(headers, front.image);
    return headers;
  }

  it('issues codes only for a photo with exactly one face', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, journeyConsents);
    await usableFront(t, headers);
    const issued = await code(headers);
    expect(issued.code).toMatch(/^\d{4}$/);
    expect(Date.parse(issued.expire) - Date.parse(issued.created)).toBe(180_000);
    const blank = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    const none = await otp(headers, blank);
    expect(none.statusCode).toBe(400);
    expect(none.json().message_client).toBe(faceMessages.noFace);
    const two = await otp(headers, groupPhoto);
    expect(two.statusCode).toBe(400);
    expect(two.json().message_client).toBe(faceMessages.multipleFaces);
    const masked = await otp(headers, maskedPhoto);
    expect(masked.statusCode).toBe(400);
    expect(masked.json()).toMatchObject({ message: faceMessages.mask, message_client: faceMessages.mask });
    const plain = await t.app.inject({ method: 'POST', url: '/v1/videotoken/code', headers, payload: { uuid: headers.cliente } });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().payload.code).toMatch(/^\d{4}$/);
    // Each code comes with the schedule of its digits (here the test-only fixed one).
    expect(issued.schedule).toEqual(testSchedule);
    expect(plain.json().payload.schedule).toEqual(testSchedule);
    // A grantor that asks for two head turns (MOVIMIENTOS_VIDEO_TOKEN): they follow the digits, the stop after them.
    await writeParams(t, demoId, { MOVIMIENTOS_VIDEO_TOKEN: '2' });
    try {
      const turns = await t.app.inject({ method: 'POST', url: '/v1/videotoken/code', headers, payload: { uuid: headers.cliente } });
      const last = testSchedule.digitsMs[testSchedule.digitsMs.length - 1]!;
      expect(turns.json().payload.schedule).toEqual({
        digitsMs: testSchedule.digitsMs,
        stopMs: last + 2200 + 2 * 2600,
        prompts: [
          { motion: 'left', atMs: last + 2200 },
          { motion: 'right', atMs: last + 4800 },
        ],
      });
    } finally {
      await writeParams(t, demoId, { MOVIMIENTOS_VIDEO_TOKEN: '0' });
    }
  }, 60_000);

  it("refuses the holder's talking video that does not follow the code's schedule as the phrase failure (issue 18)", async () => {
    const headers = await consentedWithFront();
    for (const video of [videos.otherSchedule, videos.continuous]) {
      const refused = await videoToken(headers, await code(headers), video, 'video.mp4');
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ message: faceMessages.phrase, message_client: faceMessages.phrase });
    }
    expect((await attempts(headers.transaccion)).attempts).toEqual({ video_token: 2 });
    // The evidence says why: the reading did not follow the schedule, the face matched.
    const rows = await t.db.selectFrom('evidence').select(['id']).where('uuid_trx', '=', headers.transaccion).where('kind', '=', 'video_token').execute();
    expect(rows).toHaveLength(2);
  }, 120_000);

  it('records the camera, the recorder check and the screen evidence with every decision; refuses a virtual camera or a non-browser file only when the grantor asks (issue 18)', async () => {
    const headers = await consentedWithFront();
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const stored = async () => (await latestEvidence(t.db, cipher, headers.transaccion, evidenceKind.videoToken))?.payload as VideoTokenDecision & { outcome: string };
    const obs = { label: 'OBS Virtual Camera', width: 1280, height: 720, frameRate: 30 };
    // Chromium's fake camera, as the browser journeys report it.
    const fake = { label: 'fake_device_0', width: 640, height: 480, frameRate: 20 };

    // Default (parameters off): a virtual camera and an ffmpeg-made file are recorded, not refused.
    const recorded = await videoToken(headers, await code(headers), videos.live, 'video.webm', obs);
    expect(recorded.statusCode, recorded.body).toBe(200);
    const first = await stored();
    expect(first.camera).toEqual({ reported: true, label: 'OBS Virtual Camera', width: 1280, height: 720, frameRate: 30, virtualCamera: 'OBS Virtual Camera', refused: false });
    // The fixture's WebM is muxed by ffmpeg (encoder Lavf...), not by a browser's MediaRecorder.
    expect(first.recorder).toMatchObject({ checked: true, consistent: false, origin: 'tool', refused: false });
    expect(first.liveness.signals).toMatchObject({ screenVerdict: 'none', screenStrong: 'none', screenFrames: 3 });
    expect(typeof first.liveness.signals.screenMoire).toBe('number');
    expect(first.liveness.signals.screenMs).toBeLessThan(2000);

    await writeParams(t, demoId, { RECHAZAR_CAMARA_VIRTUAL: 'true' });
    try {
      // The grantor refuses virtual cameras: the OBS camera is refused (an attempt counted, the video kept)...
      const refused = await videoToken(headers, await code(headers), videos.live, 'video.webm', obs);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ message_client: errorTexts.watchdog });
      expect(refused.json().message).toMatch(/^Video source refused: the camera 'OBS Virtual Camera' is a virtual camera/);
      expect(await stored()).toMatchObject({ outcome: 'refused_source', match: false, camera: { label: 'OBS Virtual Camera', refused: true } });
      expect((await attempts(headers.transaccion)).attempts).toEqual({ video_token: 1 });
      // ...and Chromium's fake camera, which the browser journeys use, is not.
      const journeyCamera = await videoToken(headers, await code(headers), videos.live, 'video.webm', fake);
      expect(journeyCamera.statusCode, journeyCamera.body).toBe(200);
      expect((await stored()).camera).toMatchObject({ label: 'fake_device_0', virtualCamera: null, refused: false });
    } finally {
      await writeParams(t, demoId, { RECHAZAR_CAMARA_VIRTUAL: 'false' });
    }

    await writeParams(t, demoId, { RECHAZAR_VIDEO_NO_NAVEGADOR: 'true' });
    try {
      const tool = await videoToken(headers, await code(headers), videos.live, 'video.webm', fake);
      expect(tool.statusCode, tool.body).toBe(400);
      expect(tool.json().message).toMatch(/^Video source refused: the file is not a browser recording: written by 'Lavf/);
      expect((await stored()).recorder).toMatchObject({ consistent: false, refused: true });
      expect((await attempts(headers.transaccion)).attempts).toEqual({ video_token: 2 });
    } finally {
      await writeParams(t, demoId, { RECHAZAR_VIDEO_NO_NAVEGADOR: 'false' });
    }
  }, 300_000);

  it('decides the face video of the ID holder, another person and a still photo; refuses bad uploads and spent codes', async () => {
    const headers = await consentedWithFront();

    // Bad uploads: refused before anything is decided; the code stays usable.
    const first = await code(headers);
    expect((await videoToken(headers, first, Buffer.alloc(0))).statusCode).toBe(400);
    expect((await videoToken(headers, first, Buffer.from('esto no es un video, es texto'))).statusCode).toBe(415);
    const corrupt = await videoToken(headers, first, Buffer.concat([videos.live.subarray(0, 64), Buffer.alloc(20_000, 7)]));
    expect(corrupt.statusCode, corrupt.body).toBe(400);
    expect(corrupt.json().message_client).toBe(errorTexts.watchdog);
    const huge = await videoToken(headers, first, Buffer.concat([videos.live, Buffer.alloc(UPLOAD_LIMIT, 1)]));
    expect(huge.statusCode).toBe(413);
    expect((await attempts(headers.transaccion)).attempts).toEqual({});

    // The holder in a mask: 'Se detectó cubrebocas', recoverable (no attempt counted), the code spent.
    const maskedCode = await code(headers);
    const masked = await videoToken(headers, maskedCode, videos.masked, 'video.mp4');
    expect(masked.statusCode, masked.body).toBe(400);
    expect(masked.json()).toMatchObject({ message: faceMessages.mask, message_client: faceMessages.mask });
    expect((await attempts(headers.transaccion)).attempts).toEqual({});
    expect((await videoToken(headers, maskedCode, videos.live)).statusCode).toBe(409);

    // The holder reading the code: a match.
    const match = await videoToken(headers, first, videos.live);
    expect(match.statusCode, match.body).toBe(200);
    expect(match.json()).toEqual({ status: 200, payload: { match: true, liveness: true } });
    const listed = await t.app.inject({ method: 'GET', url: `/v1/transactions/${headers.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    // Both decided videos are kept as evidence: the masked one and the match.
    expect((listed.json().payload.evidence as Array<{ kind: string; sha256: string }>).filter((e) => e.kind === 'video_token')).toHaveLength(2);

    // The same code again, and an expired one.
    expect((await videoToken(headers, first, videos.live)).statusCode).toBe(409);
    const stale = await code(headers);
    const past = new Date(Date.now() - 1000).toISOString();
    await t.db.updateTable('video_token_codes').set({ expire_at: past }).where('created_at', '=', stale.created).execute();
    const expired = await videoToken(headers, { created: stale.created, expire: past }, videos.live);
    expect(expired.statusCode).toBe(410);
    expect((await videoToken(headers, { created: stale.created, expire: stale.expire }, videos.live)).statusCode).toBe(400);
    expect((await attempts(headers.transaccion)).attempts).toEqual({});

    // Somebody else: no match, one attempt counted.
    const other = await videoToken(headers, await code(headers), videos.other);
    expect(other.statusCode, other.body).toBe(400);
    expect(other.json()).toMatchObject({ message: errorTexts.noMatch, message_client: errorTexts.noMatchClient });
    expect((await attempts(headers.transaccion)).attempts).toEqual({ video_token: 1 });

    // A still photo with the code read aloud: spoof, every attempt used at once, the transaction locked.
    const still = await videoToken(headers, await code(headers), videos.still);
    expect(still.statusCode, still.body).toBe(404);
    expect(still.json().message).toBe(errorTexts.spoofDetected);
    const state = await attempts(headers.transaccion);
    expect(state.attempts).toEqual({ video_token: 3 });
    expect(Date.parse(state.lockedUntil ?? '')).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect((await otp(headers, photo)).statusCode).toBe(429);
  }, 300_000);
});
