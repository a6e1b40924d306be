import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../../apps/server/test/uploads/samples.js';
import { launchBrowser } from '../support/browser.js';
import { testSchedule } from '../support/code-timing.js';
import { finish, record, start, startMessage, startRealtimeServer, type RealtimeServer } from '../support/realtime.js';
import { fixtureDay } from '../support/fixture-day.js';

/**
 * The face video of docs/flow.md §2 over the real-time path, decided for real: the ID front is read (/v2/ocr), a code is
 * issued, and Chromium's fake camera and microphone play a generated video of the ID's holder reading the digits
 * (packages/fixtures writeFaceVideo). The server records it over WebRTC and the face-video decision answers.
 */
let work: string;
let server: RealtimeServer;
let faceBrowser: Browser;
let facePage: Page;
let front: Buffer;

beforeAll(async () => {
  // Seed 22 puts face fa-s6-b on the INE; the camera shows that face reading the digits, the microphone says them.
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-realtime-face-'));
  const dir = work;
  await generateFixtureSet({ outDir: dir, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: fixtureDay });
  front = await readFile(path.join(dir, 'ine-000-front-clean.png'));
  const truth = JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  // Reading at the test-only fixed schedule every code of this server carries (support/code-timing.ts).
  const video = await writeFaceVideo({ faceId: truth.face!.id, kind: 'live', outDir: dir, seed: 22, y4m: true, digitTimesMs: testSchedule.digitsMs, reactionMs: [450, 500, 430, 480] });
  server = await startRealtimeServer();
  faceBrowser = await launchBrowser({ videoFile: video.y4m!, audioFile: video.wav });
  facePage = await faceBrowser.newPage();
  await facePage.goto(`${server.url}/healthz`);
}, 120_000);

afterAll(async () => {
  await faceBrowser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the face video over the real-time path, decided for real', () => {
  // One retry: under CPU contention Chromium's encoder may start at a lower resolution or drop frames while the
  // digits are read, and the decision then (rightly) asks to read the code again, as the flow would.
  it('matches the ID holder reading the code', { retry: 1, timeout: 120_000 }, async () => {
    const message = startMessage({ service: 'videotoken-embedding' });
    const headers = { apikey: 'demo', transaccion: message.transaccion, cliente: message.cliente };
    await server.afterConsents(message);
    const { payload, contentType } = multipartBody([
      { name: 'uuidUser', value: message.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'front.png', contentType: 'image/png', data: front },
    ]);
    const ocr = await server.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...headers, 'content-type': contentType }, payload });
    expect(ocr.statusCode, ocr.body).toBe(200);
    const issued = await server.app.inject({ method: 'POST', url: '/v1/videotoken/code', headers, payload: { uuid: message.cliente } });
    const { created, expire } = (issued.json() as { payload: { created: string; expire: string } }).payload;

    // The camera opens as recording starts, so the digits fall where the code's schedule puts them.
    const { replies } = await record(facePage, { steps: [start({ ...message, created, expire }), 'camera', 9000, finish], audio: true });
    expect(JSON.parse(replies[0]!)).toEqual({ status: 200, res: { status: 200, payload: { match: true, liveness: true } } });
    const events = await server.app.inject({ method: 'GET', url: `/v1/transactions/${message.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    const kinds = (events.json() as { payload: { evidence: { kind: string }[] } }).payload.evidence.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['grabacion_tiempo_real', 'video_token']));
  });
});
