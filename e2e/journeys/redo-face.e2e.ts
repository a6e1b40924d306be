import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { FakeMedia, generateHolder, readingVideo, type FaceMedia, type Holder } from '../support/face-video.js';
import { faceVideoIntro, openFaceCamera, sessionWithIdFront, watchDigits } from '../support/journey-steps.js';
import { askRedo, giveCaseEmail, mailedRedoLink, sendLifecycle, signInReviewer } from '../support/redo.js';
import { startServer, type RunningServer } from '../support/server.js';

const demoId = '00000000-0000-4000-8000-000000000001';

let server: RunningServer;
let work: string;
let holder: Holder;
let person: FaceMedia;
const browsers: Browser[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-redo-face-'));
  holder = await generateHolder(work);
  person = await readingVideo(work, holder.faceId, 'person');
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
}, 480_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a review asks the customer to record the face video again (issue #16)', () => {
  it('the reviewer asks for the face video; the ID holder records it from the e-mailed link on a phone; the case is back in review', async () => {
    // A case whose ID front was read for real (the holder photo the redo compares with), then finished.
    const plain = await launchBrowser();
    browsers.push(plain);
    const flow = await newPhoneOrDesktop(plain, 'phone');
    const s = await sessionWithIdFront(await flow.newPage(), server, holder.frontPng);
    await flow.close();
    const headers = { apikey: s.apikey, transaccion: s.uuidTrx, cliente: s.uuidUser };
    await sendLifecycle(server, headers, { grantorId: demoId, step: 'finished', status: 'FAIL', description: 'Proceso concluido', name: 'Titular Generado' });
    const email = 'rostro@correo.example';
    await giveCaseEmail(server, s.uuidTrx, email);

    const staff = await newWatchedPage(plain, 'desktop');
    const desk = staff.page;
    await signInReviewer(desk, server, demoId, 'rostro-reviewer@demo.example');
    const open = desk.getByRole('button', { name: `Abrir el expediente ${s.uuidTrx.slice(0, 8)}` });
    await expect.poll(() => open.isVisible(), { timeout: 15_000 }).toBe(true);
    await open.click();
    await askRedo(desk, { step: 'face', reason: 'face_video_unclear', note: 'El video anterior no permite ver el rostro.' });
    expect(await desk.getByText('Video del rostro', { exact: false }).first().isVisible()).toBe(true);

    // The customer, on a phone whose camera shows the holder reading the code at the schedule.
    const link = await mailedRedoLink(server, email);
    const media = new FakeMedia(work);
    await media.play(person);
    const camera = await media.launch();
    browsers.push(camera);
    const context = await newPhoneOrDesktop(camera, 'phone');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(link);
    await expect.poll(() => page.getByRole('heading', { name: 'Repite un paso de tu solicitud' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText('un video de tu rostro').isVisible()).toBe(true);
    await screenshot(page, 'redo-face-phone-01-intro');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await faceVideoIntro(page);
    await openFaceCamera(page);
    await watchDigits(page, 'redo-face-phone-02-digito');
    await expect.poll(() => page.getByRole('heading', { name: '¡Listo!' }).isVisible(), { timeout: 90_000 }).toBe(true);
    await screenshot(page, 'redo-face-phone-03-finished');
    expect(pageErrors).toEqual([]);
    await context.close();

    // Back in the console: the redo is done and the case file shows the new face decision.
    await desk.reload();
    await expect.poll(() => open.isVisible(), { timeout: 15_000 }).toBe(true);
    await open.click();
    await expect.poll(() => desk.getByText('la persona ya lo envió', { exact: false }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    expect(staff.pageErrors).toEqual([]);
    await staff.context.close();
  }, 300_000);
});
