import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../src/blob/index.js';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { byteRange, framesShown, pickFrames } from '../src/features/console/case-media-routes.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';

const otherKey = 'other-grantor-media-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000c5';

/** A 3-second VP8 video drawn by ffmpeg (its test pattern), as the face video's blob. */
function testVideo(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'kyc-console-video-'));
  try {
    const file = path.join(dir, 'face.webm');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-t',
      '3',
      '-c:v',
      'libvpx',
      '-deadline',
      'good',
      '-cpu-used',
      '5',
      '-b:v',
      '300k',
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const names: string[] = [];
      file.on('entry', (entry: { fileName: string }) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/**
 * The case file's media in the console (issue #16): the face video streamed (Range) to a signed-in user of the case's
 * grantor, evenly spaced frames of it, and the evidence bundle as a download for reviewers and admins; another
 * grantor's case is 404, a blocked one 451; each view and download audited.
 */
describe.each(engines)('console case media ($name)', (engine) => {
  let t: TestApp;
  let video: Buffer;
  let finishedTrx: string;
  let openTrx: string;
  let blockedTrx: string;
  const users: Record<string, string> = {};
  const cipher = () => createDataCipher(loadDataKey(t.config).key);

  async function signIn(...argv: string[]): Promise<string> {
    const out: string[] = [];
    expect(await runGrantorCommand(t, ['console-user-create', ...argv], { out: (l) => out.push(l), err: () => undefined }, undefined, cipher)).toBe(0);
    const text = out.join('\n');
    const email = argv[argv.indexOf('--email') + 1]!;
    const secret = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
    const first = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password: /password: (\S+)/.exec(text)![1]! } });
    const cookieOf = (res: typeof first) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;
    if (first.json().stage === 'active') return cookieOf(first);
    const second = await t.app.inject({
      method: 'POST',
      url: '/console/api/session/totp',
      payload: { code: totpAt(new URL(secret!).searchParams.get('secret')!, timeStep(new Date())) },
      headers: { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken },
    });
    return cookieOf(second);
  }

  const get = (url: string, cookie: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { cookie, ...headers } });
  const audits = async (action: string) =>
    (await t.db.selectFrom('console_audit').select(['detail']).where('action', '=', action).orderBy('id').execute()).map((a) => JSON.parse(a.detail) as Record<string, unknown>);

  async function caseWithVideo(apikey?: string, grantorId = demoId, describedFramesMs?: number[]) {
    const demo = await startedTransaction(t.app, apikey);
    const uuidTrx = demo.transaccion.toLowerCase();
    const blobs = createBlobStore(t.config, cipher());
    const blob = await blobs.put(`${grantorId}/${demo.cliente}/video_token/${uuidTrx}.webm`, video, { contentType: 'video/webm' });
    await addEvidence(t.db, cipher(), {
      uuidTrx,
      grantorId,
      kind: evidenceKind.videoToken,
      blobKey: blob.key,
      sha256: blob.sha256,
      payload: {
        match: true,
        faceScore: 0.9,
        threshold: 0.5,
        ...(describedFramesMs ? { describedFramesMs } : {}),
        liveness: { passed: true, spoof: false, signals: {} },
        spokenCode: { verified: null, engine: 'none', detail: 'test' },
      },
    });
    return { demo, uuidTrx };
  }

  beforeAll(async () => {
    video = testVideo();
    t = await startTestApp(engine, { RATE_LIMITS: 'off' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    const finished = await caseWithVideo(undefined, demoId, [750, 1750]);
    finishedTrx = finished.uuidTrx;
    const end = lifecycleEvent(finished.demo, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', payload: end, headers: finished.demo })).statusCode).toBe(200);
    openTrx = (await startedTransaction(t.app)).transaccion.toLowerCase();
    blockedTrx = (await caseWithVideo()).uuidTrx;
    await t.db.updateTable('transactions').set({ restricted_at: new Date().toISOString() }).where('uuid_trx', '=', blockedTrx).execute();
    users.viewer = await signIn('--grantor', demoId, '--email', 'viewer@demo.example', '--role', 'viewer');
    users.reviewer = await signIn('--grantor', demoId, '--email', 'reviewer@demo.example', '--role', 'reviewer');
    users.other = await signIn('--grantor', otherId, '--email', 'reviewer@otra.example', '--role', 'reviewer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('streams the face video whole or by ranges, no-store, auditing the view once per playback', async () => {
    const whole = await get(`/console/api/cases/${finishedTrx}/video`, users.viewer!);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['cache-control']).toBe('no-store');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(video)).toBe(true);
    const first = await get(`/console/api/cases/${finishedTrx}/video`, users.viewer!, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${video.length}`);
    expect(first.rawPayload.equals(video.subarray(0, 100))).toBe(true);
    const later = await get(`/console/api/cases/${finishedTrx}/video`, users.viewer!, { range: 'bytes=100-' });
    expect(later.statusCode).toBe(206);
    expect(later.rawPayload.equals(video.subarray(100))).toBe(true);
    expect((await get(`/console/api/cases/${finishedTrx}/video`, users.viewer!, { range: `bytes=${video.length}-` })).statusCode).toBe(416);
    // The whole body and the range from byte 0 are views; the range from byte 100 is the same playback.
    expect((await audits('case_video_viewed')).map((a) => a.uuidTrx)).toEqual([finishedTrx, finishedTrx]);
  });

  it('extracts the frames the decision compared with the ID photo and others spread over the video, as JPEGs with their times', async () => {
    const res = await get(`/console/api/cases/${finishedTrx}/video/frames`, users.viewer!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { durationMs: number; frames: { timeMs: number; image: string; compared: boolean }[] };
    expect(body.durationMs).toBeGreaterThanOrEqual(2500);
    expect(body.frames).toHaveLength(framesShown);
    expect(body.frames.filter((f) => f.compared).map((f) => f.timeMs)).toEqual([750, 1750]);
    const times = body.frames.map((f) => f.timeMs);
    expect(times[0]).toBe(0);
    expect(times.at(-1)).toBeGreaterThanOrEqual(2000);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const jpeg = Buffer.from(body.frames[2]!.image.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([320, 240]);
    // The frames differ: the test pattern's counter moves.
    expect(body.frames[0]!.image).not.toBe(body.frames.at(-1)!.image);
    expect((await audits('case_video_frames_viewed')).at(-1)).toMatchObject({ uuidTrx: finishedTrx, frames: framesShown, compared: 2 });
  });

  it('picks the frames nearest the compared times, then evenly spaced ones, in time order; evenly spaced only for older decisions', () => {
    const times = Array.from({ length: 36 }, (_, i) => i * 250);
    expect(pickFrames(times, [1000, 4100, 7000], 6)).toEqual([
      { index: 0, compared: false },
      { index: 4, compared: true },
      { index: 7, compared: false },
      { index: 14, compared: false },
      { index: 16, compared: true },
      { index: 28, compared: true },
    ]);
    expect(pickFrames(times, [], 6).map((p) => p.index)).toEqual([0, 7, 14, 21, 28, 35]);
    expect(pickFrames(times.slice(0, 3), [250], 6)).toEqual([
      { index: 0, compared: false },
      { index: 1, compared: true },
      { index: 2, compared: false },
    ]);
  });

  it('downloads the evidence bundle for a reviewer, reusing it while nothing changed; a viewer is refused', async () => {
    const refused = await get(`/console/api/cases/${finishedTrx}/bundle`, users.viewer!);
    expect(refused.statusCode).toBe(403);
    expect((await audits('case_bundle_refused')).at(-1)).toMatchObject({ uuidTrx: finishedTrx, role: 'viewer' });

    const res = await get(`/console/api/cases/${finishedTrx}/bundle`, users.reviewer!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="expediente-${finishedTrx.slice(0, 8)}.zip"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const names = await zipEntries(res.rawPayload);
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'manifest.json.tsr', 'evidencias/registros.json', 'documentos/reporte.pdf']));
    expect(names.some((n) => n.endsWith('-video_token.webm'))).toBe(true);
    const again = await get(`/console/api/cases/${finishedTrx}/bundle`, users.reviewer!);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    const downloads = await audits('case_bundle_downloaded');
    expect(downloads.map((d) => d.reused)).toEqual([false, true]);
    expect(downloads[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(downloads[1]!.sha256).toBe(downloads[0]!.sha256);
  });

  it('an unfinished case has no bundle yet (409) and a case without a face video has no video (404)', async () => {
    expect((await get(`/console/api/cases/${openTrx}/bundle`, users.reviewer!)).statusCode).toBe(409);
    expect((await get(`/console/api/cases/${openTrx}/video`, users.viewer!)).statusCode).toBe(404);
    expect((await get(`/console/api/cases/${openTrx}/video/frames`, users.viewer!)).statusCode).toBe(404);
  });

  it("another grantor's case answers 404 (audited), a blocked case 451, and nothing without a session", async () => {
    for (const suffix of ['video', 'video/frames', 'bundle']) {
      expect((await get(`/console/api/cases/${finishedTrx}/${suffix}`, users.other!)).statusCode).toBe(404);
      const blocked = await get(`/console/api/cases/${blockedTrx}/${suffix}`, users.reviewer!);
      expect(blocked.statusCode).toBe(451);
      expect(blocked.json().message_client).toBe('Los datos de este proceso están bloqueados a petición de su titular.');
      expect((await t.app.inject({ method: 'GET', url: `/console/api/cases/${finishedTrx}/${suffix}` })).statusCode).toBe(401);
    }
    expect((await audits('case_refused')).filter((a) => a.uuidTrx === finishedTrx)).toHaveLength(3);
  });
});

describe('byteRange', () => {
  it('reads one bytes range, open-ended and suffix ranges, and refuses what it cannot serve', () => {
    expect(byteRange(undefined, 10)).toBeUndefined();
    expect(byteRange('bytes=0-3', 10)).toEqual({ start: 0, end: 3 });
    expect(byteRange('bytes=4-', 10)).toEqual({ start: 4, end: 9 });
    expect(byteRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(byteRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(byteRange('bytes=10-', 10)).toBeNull();
    expect(byteRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(byteRange('items=0-1', 10)).toBeNull();
  });
});
