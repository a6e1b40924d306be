import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateFixtureSet, writeFaceVideo } from '@kyc/fixtures';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, screenshot } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The face video token over the real-time path through the product UI: a test grantor with
 * MODO_VIDEO_TOKEN='tiempo_real', the flow's own FaceVideo step (apps/web/src/media/realtime.ts) streaming
 * Chromium's fake camera and microphone over WebRTC to the real server (apps/server/src/realtime/), which records
 * and decides. No /v2/videotoken upload is made.
 *
 * The fake files loop, and the recording starts at a moment set by the otp call's duration. The generated video is
 * therefore one 9 s loop in which the holder reads a digit every second from its very start, so that whenever the
 * server starts recording, a digit is being read at each of the flow's ticks.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

let server: RunningServer;
let browser: Browser;
let work: string;

async function grantorCli(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(root, 'apps/server/dist/cli/grantor.js'), ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' },
  });
  return stdout;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-video-realtime-'));
  await generateFixtureSet({ outDir: work, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: new Date().toISOString().slice(0, 10) });
  const truth = JSON.parse(await readFile(path.join(work, 'ine-000-front-clean.json'), 'utf8')) as { face?: { id: string } };
  const faceId = truth.face?.id;
  if (!faceId) throw new Error('the generated INE has no face');
  const video = await writeFaceVideo({ faceId, kind: 'live', code: '472947294', firstDigitMs: 0, outDir: work, seed: 'realtime', name: 'holder', y4m: true });
  if (!video.y4m) throw new Error('no y4m written');
  server = await startServer();
  browser = await launchBrowser({ videoFile: video.y4m, audioFile: video.wav });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A fresh session on `apikey`'s grantor, with the ID front of the generated person read by the real /v2/ocr. */
async function sessionWithIdFront(page: Page, apikey: string): Promise<{ uuidTrx: string }> {
  await page.goto(`${server.url}/${apikey}`);
  const begin = page.getByRole('button', { name: 'EMPEZAR' });
  await expect.poll(() => begin.isEnabled()).toBe(true);
  await begin.click();
  await page.waitForURL('**/terminos');
  const session = await page.evaluate(() => ({
    uuidUser: localStorage.getItem('uuidUser') ?? '',
    uuidTrx: localStorage.getItem('uuidTrx') ?? '',
    apikey: localStorage.getItem('apikeyOtorgante') ?? '',
  }));
  expect(session.apikey).toBe(apikey);
  const form = new FormData();
  form.append('uuidUser', session.uuidUser);
  form.append('side', 'front');
  form.append('originOS', 'android');
  form.append('ine', new Blob([await readFile(path.join(work, 'ine-000-front-clean.png'))], { type: 'image/png' }), 'frente.png');
  const response = await fetch(`${server.url}/v2/ocr`, {
    method: 'POST',
    headers: { transaccion: session.uuidTrx, cliente: session.uuidUser, apikey: session.apikey },
    body: form,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { payload: { ocrData: Record<string, unknown> } };
  await page.evaluate((ocrData) => localStorage.setItem('ocrFront', JSON.stringify(ocrData)), body.payload.ocrData);
  return { uuidTrx: session.uuidTrx };
}

describe("face video token over the real-time path (MODO_VIDEO_TOKEN='tiempo_real') through the UI", () => {
  // One retry: under CPU contention Chromium's encoder may start at a lower resolution or drop frames while the
  // digits are read, and the decision then (rightly) asks to read the code again.
  it('the ID holder reads the code over WebRTC → match → /finalizado, recorded by the server, no upload', { retry: 1, timeout: 90_000 }, async () => {
    const created = await grantorCli(['create', '--name', 'Prueba Tiempo Real']);
    const grantorId = /id:\s+(\S+)/.exec(created)?.[1];
    const apiKey = /api key:\s+(\S+)/.exec(created)?.[1];
    expect(grantorId && apiKey, created).toBeTruthy();
    await grantorCli(['set', grantorId!, 'MODO_VIDEO_TOKEN=tiempo_real']);

    const context = await newPhoneOrDesktop(browser, 'desktop');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const { uuidTrx } = await sessionWithIdFront(page, apiKey!);

    await page.goto(`${server.url}/video_token`);
    await page.getByRole('heading', { name: 'Confirmación de identidad' }).waitFor();
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await page.getByText('Lee cada número en voz alta y claro conforme aparezca').waitFor({ timeout: 40_000 });
    await page.locator('.face-video__digit[data-slot="1"]').waitFor({ timeout: 15_000 });
    await screenshot(page, 'desktop-48-video-tiempo-real');
    const outcome = await Promise.race([
      page.getByRole('dialog', { name: 'Lo sentimos' }).waitFor({ timeout: 45_000 }).then(async () => `dialog: ${await page.getByTestId('face-error').textContent()}`),
      page.waitForURL('**/finalizado', { timeout: 45_000 }).then(() => 'finalizado'),
    ]);
    expect(outcome).toBe('finalizado');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('face'))) ?? '{}')).toMatchObject({ match: true });

    // The real-time path: signalling calls were made, the recorder's upload was not.
    expect(requests).toContain('POST /record/connections');
    expect(requests.filter((r) => r === 'POST /v2/videotoken')).toEqual([]);

    const response = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { apikey: apiKey! } });
    expect(response.status).toBe(200);
    const kinds = ((await response.json()) as { payload: { evidence: { kind: string }[] } }).payload.evidence.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['grabacion_tiempo_real', 'video_token']));
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
