import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, screenshot, seriousA11yViolations } from '../support/browser.js';
import { FakeMedia, generateHolder, readingVideo, type FaceMedia, type Holder } from '../support/face-video.js';
import { faceVideoIntro, faceVideoOutcome, openFaceCamera, sessionWithIdFront, watchDigits } from '../support/journey-steps.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The face video token with the real server (otp, /v2/videotoken, face engine) and Chromium's fake camera and
 * microphone fed with a generated person's face video and espeak digits.
 *
 * Chromium starts the fake files from their beginning when the flow opens the camera (CONTINUAR). The server issues
 * codes with the test-only fixed digit schedule and the test holds the code's reply until a set time after the
 * camera opened (support/code-timing.ts), so the recording starts a known time into the generated reading
 * (support/face-video.ts readingVideo), which follows that schedule.
 */

let server: RunningServer;
let browser: Browser | undefined;
let work: string;
let holder: Holder;
/** The files Chromium reads; swapped atomically between attempts. */
let media: FakeMedia;
let person: FaceMedia;
let stranger: FaceMedia;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-video-'));
  holder = await generateHolder(work);
  [person, stranger] = await Promise.all([readingVideo(work, holder.faceId, 'person'), readingVideo(work, holder.strangerFaceId, 'stranger')]);
  media = new FakeMedia(work);
  server = await startServer();
}, 480_000);

/**
 * A browser whose fake camera and microphone start on `face`. Chromium reads the fake files when it starts (a
 * swap before the first capture is not seen); a capture opened later reads whatever the paths hold then.
 */
async function browserShowing(face: FaceMedia): Promise<Browser> {
  await browser?.close();
  await media.play(face);
  browser = await media.launch();
  return browser;
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function startVideo(page: Page, shot: string): Promise<void> {
  await page.goto(`${server.url}/video_token`);
  await faceVideoIntro(page);
  await screenshot(page, `${shot}-intro`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await openFaceCamera(page);
}

describe('face video token with the fake camera and microphone and the real face engine', () => {
  it('someone else on camera → "Lo sentimos" with Reiniciar → the ID holder reads the code → match → /finalizado', async () => {
    const context = await newPhoneOrDesktop(await browserShowing(stranger), 'desktop');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // The camera's label and settings go with each video (info_camara, issue 18).
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v2/videotoken')) uploads.push(request.postDataBuffer()?.toString('latin1') ?? '');
    });
    await sessionWithIdFront(page, server, holder.frontPng);

    await startVideo(page, 'desktop-42-video');
    await watchDigits(page, 'desktop-43-video-digito');
    const dialog = page.getByRole('dialog', { name: 'Lo sentimos' });
    expect(await faceVideoOutcome(page, 'finalizado', 90_000)).toMatch(/^dialog: /);
    await screenshot(page, 'desktop-44-video-error');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expect.poll(() => page.getByTestId('face-error').textContent()).toBe('Lo sentimos detectamos inconsistencias en tu captura, por favor reinicia el proceso.');
    expect(await dialog.getByRole('button', { name: 'Reintentar' }).count()).toBe(0);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('intentsData'))) ?? '{}')).toMatchObject({ video_token: 1 });

    // Reiniciar closes the camera; CONTINUAR reopens it on the holder's video.
    await media.play(person);
    await dialog.getByRole('button', { name: 'Reiniciar' }).click();
    await faceVideoIntro(page);
    await openFaceCamera(page);
    await watchDigits(page, 'desktop-45-video-digito');
    await page.waitForURL('**/finalizado', { timeout: 60_000 });
    const stored = await page.evaluate(() => ({ face: localStorage.getItem('face'), codes: localStorage.getItem('codes') }));
    expect(JSON.parse(stored.face ?? '{}')).toMatchObject({ match: true });
    // One code per attempt, as the otp call issued them.
    const codes = JSON.parse(stored.codes ?? '[]') as Array<{ code: string }>;
    expect(codes).toHaveLength(2);
    for (const { code } of codes) expect(code).toMatch(/^\d{4}$/);
    // Chromium's fake camera fed from a file is labelled with the file's path (without a file: 'fake_device_0'):
    // no virtual-camera name, so the match above stands with RECHAZAR_CAMARA_VIRTUAL on or off.
    expect(uploads).toHaveLength(2);
    for (const body of uploads) {
      const field = /name="info_camara"\r\n\r\n([^\r]*)\r\n/.exec(body)?.[1];
      expect(JSON.parse(field ?? '{}')).toMatchObject({ label: expect.stringMatching(/\.y4m$/), width: expect.any(Number), height: expect.any(Number) });
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 200_000);

  it("no face on camera → 'No se encontró rostro' with Reintentar, not counted; Reintentar tries again on the open camera", async () => {
    await browser?.close();
    // Chromium's own fake camera: a test pattern without a face.
    browser = await launchBrowser();
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    await sessionWithIdFront(page, server, holder.frontPng);
    await startVideo(page, 'phone-46-video');
    const dialog = page.getByRole('dialog', { name: 'Lo sentimos' });
    await dialog.waitFor({ timeout: 40_000 });
    await screenshot(page, 'phone-47-video-sin-rostro');
    expect(await page.getByTestId('face-error').textContent()).toBe('No se encontró rostro');
    const retry = dialog.getByRole('button', { name: 'Reintentar' });
    expect(await dialog.getByRole('button', { name: 'Cancelar' }).count()).toBe(1);
    const started = Date.now();
    await retry.click();
    await dialog.waitFor({ state: 'hidden' });
    await dialog.waitFor({ timeout: 20_000 });
    // A retry shows the positioning prompt for 2 s (not 7 s) before the photo.
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(await page.getByTestId('face-error').textContent()).toBe('No se encontró rostro');
    const intents = JSON.parse((await page.evaluate(() => localStorage.getItem('intentsData'))) ?? '{}') as Record<string, unknown>;
    expect(intents.video_token ?? 0).toBe(0);

    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await page.waitForURL('**/cancelar_flujo/video_token');
    await context.close();
  }, 120_000);
});
