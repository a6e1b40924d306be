import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { listOutbox } from '../src/mail/mailer.js';
import { claimResultEmail } from '../src/features/results/result-emails.js';
import { generateWebhookSecret } from '../src/features/webhooks/signing.js';
import { insertEndpoint } from '../src/features/webhooks/store.js';
import { waitFor } from './results/support.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { createConsoleUser, signInConsole, type ConsoleWho } from './support/console-users.js';
import { demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents, journeyConsents, recordFaceDecision } from './support/journey.js';
import { testScheduleEnv } from './support/schedule.js';
import { generatedHolder, scheduledReading, strangerFace } from './support/holder.js';
import { receiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { multipartBody, type FormPart } from './uploads/samples.js';
import { faceVideoApi } from './support/face-video-api.js';

let dir: string;
let front: Buffer;
let photo: Buffer;
const videos: Record<'holder' | 'other', Buffer> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'redo-face-'));
  const holder = await generatedHolder(dir);
  ({ front, photo } = holder);
  [videos.holder, videos.other] = await Promise.all([scheduledReading(dir, holder.faceId), scheduledReading(dir, strangerFace)]);
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A review's `redo` of the face video (issue #16; docs/decisions.md "Redoing the face video"): the link opens only
 * the face step; a code for a face photo, then the video decided as in the journey against the holder photo the case
 * kept; another person's face is refused and counts an attempt of the redo's own; a match lets the link finish, the
 * case returns to review with the new decision and the webhook says so.
 */
describe.each(engines)('review decision redo of the face video ($name)', (engine) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  let reviewer: ConsoleWho;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload, headers });
  const { readFront } = faceVideoApi(() => t);
  const upload = (url: string, headers: Record<string, string>, parts: FormPart[]) => {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  };
  const faceCode = (token: string) => upload('/v1/redo/face/code', { 'x-redo-token': token }, [{ name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: photo }]);
  const faceVideo = (token: string, codes: { created: string; expire: string }, video: Buffer) =>
    upload('/v1/redo/face/video', { 'x-redo-token': token }, [
      { name: 'created', value: codes.created },
      { name: 'expire', value: codes.expire },
      { name: 'originOS', value: 'android' },
      { name: 'videotoken', filename: 'video.mp4', contentType: 'video/mp4', data: video },
    ]);
  const hooks = () => hook.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

  /** A finished case whose ID front was read for real (the holder photo kept) and whose face video failed. */
  async function finishedCase(email: string) {
    const h = trxHeaders();
    expect((await get('/v1/params', h)).statusCode).toBe(200);
    expect((await post('/v1/update_cycle', lifecycleEvent(h), h)).statusCode).toBe(200);
    await acceptConsents(t.app, h, journeyConsents);
    await readFront(h, front);
    const failed = {
      match: false,
      faceScore: 0.21,
      threshold: 0.5,
      liveness: { passed: true, spoof: false, signals: {} },
      spokenCode: { verified: null, engine: 'none', detail: 'test' },
      outcome: 'no_match',
    };
    await recordFaceDecision(t, { uuidTrx: h.transaccion, grantorId: demoId }, failed);
    await claimResultEmail(t.db, cipher(), h.transaccion.toLowerCase(), email, 2);
    const finished = lifecycleEvent(h, { step: 'finished', event: JSON.stringify({ status: 'FAIL', step: 'finished', description: 'Proceso concluido' }) });
    expect((await post('/v1/update_cycle', finished, h)).statusCode).toBe(200);
    return h.transaccion.toLowerCase();
  }

  async function askFaceRedo(uuidTrx: string, email: string): Promise<string> {
    const asked = await post(
      `/console/api/cases/${uuidTrx}/review`,
      { decision: 'redo', reason: 'face_video_unclear', note: '', step: 'face', channels: ['email'] },
      { cookie: reviewer.cookie, 'x-csrf-token': reviewer.csrf },
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const decoded = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const eml = await waitFor(async () => (await listOutbox(t.dataDir, cipher())).map((m) => decoded(m.eml)).find((m) => m.includes(`To: ${email}`) && m.includes('/repetir?token=')));
    expect(eml).toContain('un video de tu rostro');
    return new URL(/(http\S+\/repetir\?token=[A-Za-z0-9._-]+)/.exec(eml)![1]!).searchParams.get('token')!;
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { ...testScheduleEnv, RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
    hook = await receiver(0);
    await insertEndpoint(t.db, cipher(), { grantorId: demoId, url: hook.url, secret: generateWebhookSecret() });
    reviewer = await signInConsole(t, await createConsoleUser(t, '--grantor', demoId, '--email', 'rostro@demo.example', '--role', 'reviewer'));
  }, 60_000);
  afterAll(async () => {
    hook?.server.close();
    await t?.close();
  });

  it('redoes the face video: only that step, another face refused on the redo’s attempts, the holder’s match finishes it and the case is scored again', async () => {
    const uuidTrx = await finishedCase('rostro@correo.example');
    const token = await askFaceRedo(uuidTrx, 'rostro@correo.example');
    const status = await get('/v1/redo', { 'x-redo-token': token });
    expect(status.json()).toMatchObject({ step: 'face', uuidTrx });
    // Only the face: an ID side through this link is refused, and nothing is finished before a match.
    const idSide = await upload('/v1/redo/id', { 'x-redo-token': token }, [
      { name: 'side', value: 'front' },
      { name: 'file', filename: 'front.png', contentType: 'image/png', data: front },
    ]);
    expect(idSide.statusCode).toBe(403);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(409);
    expect((await faceCode('')).statusCode).toBe(401);

    // Somebody else in front of the camera (a forwarded link): no match, one of the redo's attempts spent, not finished.
    const first = await faceCode(token);
    expect(first.statusCode, first.body).toBe(200);
    const codes = first.json().payload.codes as { code: string; created: string; expire: string; schedule: { digitsMs: number[] } };
    expect(codes.code).toMatch(/^\d{4,}$/);
    const other = await faceVideo(token, codes, videos.other);
    expect(other.statusCode, other.body).not.toBe(200);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(409);
    const attempts = await t.db.selectFrom('transaction_attempts').selectAll().where('uuid_trx', '=', uuidTrx).execute();
    expect(attempts.find((a) => a.step.startsWith('redo:') && a.step.endsWith(':video_token'))?.count).toBe(1);
    // A code is used once.
    expect((await faceVideo(token, codes, videos.holder)).statusCode).not.toBe(200);

    const second = (await faceCode(token)).json().payload.codes;
    const matched = await faceVideo(token, second, videos.holder);
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json().payload).toEqual({ match: true, liveness: true });
    const finished = await post('/v1/redo/finish', {}, { 'x-redo-token': token });
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().step).toBe('face');

    const file = (await get(`/console/api/cases/${uuidTrx}/file`, { cookie: reviewer.cookie })).json();
    expect(file.redo).toMatchObject({ step: 'face', state: 'completed' });
    expect(file.face).toMatchObject({ match: true });
    const completed = await waitFor(async () => hooks().find((h) => h.type === 'verification.completed' && h.data.uuidTrx === uuidTrx && h.data.reason === 'redo_completed'));
    expect(completed.data).toMatchObject({ step: 'redo:face', semaforo: file.score.flag });
    // Used up: no more codes through it.
    expect((await faceCode(token)).statusCode).toBe(410);
  }, 180_000);
});
