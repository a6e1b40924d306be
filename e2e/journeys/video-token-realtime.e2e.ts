import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop } from '../support/browser.js';
import { generateHolder, readingVideo, type Holder } from '../support/face-video.js';
import { faceVideoIntro, faceVideoOutcome, openFaceCamera, sessionWithIdFront, watchDigits } from '../support/journey-steps.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli, transactionEvents } from '../support/transactions.js';

/**
 * The face video token over the real-time path through the product UI: a test grantor with
 * MODO_VIDEO_TOKEN='tiempo_real', the flow's own FaceVideo step (apps/web/src/media/realtime.ts) streaming
 * Chromium's fake camera and microphone over WebRTC to the real server (apps/server/src/realtime/), which records
 * and decides. No /v2/videotoken upload is made.
 *
 * The server issues codes with the test-only fixed digit schedule and the test holds the code's reply until a set
 * time after the camera opened (support/code-timing.ts), so the server's recording, which starts with the start
 * message at the flow's time 0, finds the generated holder reading each digit at its time.
 */

let server: RunningServer;
let browser: Browser;
let work: string;
let holder: Holder;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-video-realtime-'));
  holder = await generateHolder(work);
  const video = await readingVideo(work, holder.faceId, 'holder');
  server = await startServer();
  browser = await launchBrowser({ videoFile: video.y4m, audioFile: video.wav });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("face video token over the real-time path (MODO_VIDEO_TOKEN='tiempo_real') through the UI", () => {
  // Two retries: under CPU contention Chromium's encoder may start at a lower resolution or drop frames while the
  // digits are read, and the decision then (rightly) asks to read the code again. A fresh-clone CI run on a 2-core
  // Intel host (session 14) saw two attempts in a row fail that way beside another journey; alone, and beside three
  // others, the same checkout passed at the first attempt.
  it('the ID holder reads the code over WebRTC → match → /finalizado, recorded by the server, no upload', { retry: 2, timeout: 90_000 }, async () => {
    const created = await grantorCli(server, ['create', '--name', 'Prueba Tiempo Real']);
    const grantorId = /id:\s+(\S+)/.exec(created)?.[1];
    const apiKey = /api key:\s+(\S+)/.exec(created)?.[1];
    expect(grantorId && apiKey, created).toBeTruthy();
    await grantorCli(server, ['set', grantorId!, 'MODO_VIDEO_TOKEN=tiempo_real']);

    const context = await newPhoneOrDesktop(browser, 'desktop');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const { uuidTrx } = await sessionWithIdFront(page, server, holder.frontPng, apiKey!);

    await page.goto(`${server.url}/video_token`);
    await faceVideoIntro(page);
    await openFaceCamera(page);
    await watchDigits(page, 'desktop-48-video-tiempo-real');
    expect(await faceVideoOutcome(page, 'finalizado', 45_000)).toBe('finalizado');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('face'))) ?? '{}')).toMatchObject({ match: true });

    // The real-time path: signalling calls were made, the recorder's upload was not.
    expect(requests).toContain('POST /record/connections');
    expect(requests.filter((r) => r === 'POST /v2/videotoken')).toEqual([]);

    const kinds = ((await transactionEvents(server, apiKey!, uuidTrx)).evidence ?? []).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['grabacion_tiempo_real', 'video_token']));
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
