// The front shown again where the back is asked for (docs/flow.md §4): refused with the spec's back text on a screen
// that says what happened and what to do next, one attempt spent; the real back then goes on to the results.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DocumentFixture } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { cardOnCamera, ineOfToday, captureSide, showOnCamera, startIdCapture } from '../support/camera.js';
import { startCameraRig, stopAll } from '../support/rig.js';
import type { RunningServer } from '../support/server.js';
import { transactionEvents } from '../support/transactions.js';

let server: RunningServer;
let browser: Browser;
let work: string;
let camera: string;
let card: DocumentFixture;
const y4m = { front: '', back: '' };

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-same-card-'));
  card = await ineOfToday(1, 'una-tarjeta', false);
  Object.assign(y4m, await cardOnCamera(work, card));
  ({ server, browser, camera } = await startCameraRig(work, y4m.front));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

// One camera rig: the phone and the desktop run one after the other.
describe.each<ViewportName>(['phone', 'desktop'])('front and back are one card, with the fake camera and the real OCR, on a %s', (viewport) => {
  it('the front shown twice is refused as the back; CAPTURAR NUEVAMENTE with the real back goes on', async () => {
    await showOnCamera(camera, y4m.front);
    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    await startIdCapture(page, `${server.url}/demo`);
    // On a desktop the camera opens with a tip on holding the ID up to the webcam.
    if (viewport === 'desktop') await page.getByRole('dialog').getByRole('button').first().click({ timeout: 20_000 });
    await captureSide(page, 'CAPTURAR FRENTE');
    // The front again, where the back is asked for.
    await showOnCamera(camera, y4m.front);
    await captureSide(page, 'CAPTURAR REVERSO');
    await page.waitForURL('**/error_pantalla', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'No pudimos usar el reverso de tu identificación' }).waitFor();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Por favor coloca la parte de atrás de tu identificación.');
    expect(await page.getByText(/Te queda/).textContent()).toMatch(/Te quedan? \d+ intentos?\./);
    await screenshot(page, `${viewport}-32-reverso-rechazado`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
    const refused = await transactionEvents(server, 'demo', uuidTrx!);
    expect(refused.transaction.attempts).toEqual({ id_reverso: 1 });
    expect((refused.evidence ?? []).map((e) => e.kind)).not.toContain('ocr_reverso');

    await showOnCamera(camera, y4m.back);
    await page.getByRole('button', { name: 'Capturar nuevamente' }).click();
    await captureSide(page, 'CAPTURAR REVERSO');
    await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
    expect(await page.locator('input[name="cic"]').inputValue()).toBe(String(card.truth.ocrBack?.cicMRZ));
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
