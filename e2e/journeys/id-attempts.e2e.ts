import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { cameraFrame, captureSide, startIdCapture } from '../support/camera.js';
import { startCameraRig, stopAll } from '../support/rig.js';
import type { RunningServer } from '../support/server.js';
import { grantorCli, transactionEvents } from '../support/transactions.js';

let server: RunningServer;
let browser: Browser;
let work: string;
const y4m = { notAnId: '' };

/** A business card: a light rectangle with printed lines, the size of an ID, that is no ID at all. */
function businessCard(): Buffer {
  const lines = ['TALLER MECÁNICO HERMANOS', 'Afinación y frenos', 'Av. Siempre Viva 742', 'Lunes a sábado'];
  const text = lines.map((line, i) => `<text x="90" y="${260 + i * 110}" font-family="DejaVu Sans" font-size="${i === 0 ? 74 : 58}" fill="#1d2b4f">${line}</text>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1262"><rect width="2000" height="1262" fill="#f1ead8"/>` +
      `<rect x="60" y="60" width="1880" height="1142" fill="none" stroke="#9a6b2f" stroke-width="14"/>${text}` +
      `<circle cx="1640" cy="330" r="170" fill="#c0392b"/></svg>`,
  );
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-attempts-'));
  y4m.notAnId = path.join(work, 'not-an-id.y4m');
  await cameraFrame(await sharp(businessCard()).png().toBuffer(), y4m.notAnId);
  ({ server, browser } = await startCameraRig(work, y4m.notAnId));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

describe('ID capture attempts, with the fake camera and the real OCR', () => {
  it("a camera that never shows an ID spends INTENTOS_ID_FRONTAL → 'Proceso no exitoso' with the folio", async () => {
    const created = await grantorCli(server, ['create', '--name', 'Prueba Intentos']);
    const grantorId = /id:\s+(\S+)/.exec(created)?.[1];
    const apiKey = /api key:\s+(\S+)/.exec(created)?.[1];
    expect(grantorId && apiKey, created).toBeTruthy();
    await grantorCli(server, ['set', grantorId!, 'INTENTOS_ID_FRONTAL=2']);

    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');
    await startIdCapture(page, `${server.url}/${apiKey}`);

    // First attempt: the server reads no ID and counts it; the tips screen offers another try.
    await captureSide(page, 'CAPTURAR FRENTE');
    await page.waitForURL('**/error_pantalla', { timeout: 60_000 });
    await page.getByText('Te queda 1 intento.').waitFor();
    await screenshot(page, 'phone-21-error-pantalla');
    await page.getByRole('button', { name: 'Capturar nuevamente' }).click();
    await page.waitForURL('**/identificacion');

    // Second and last attempt.
    await captureSide(page, 'CAPTURAR FRENTE');
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 60_000 });
    await page.getByText('Has superado el número máximo de intentos para este proceso inténtalo nuevamente más tarde.').waitFor();
    const uuidTrx = (await page.evaluate(() => localStorage.getItem('uuidTrx')))!;
    const folio = uuidTrx.split('-')[0]!;
    expect(await page.locator('.folio strong').textContent()).toBe(folio);
    await screenshot(page, 'phone-22-proceso-no-exitoso');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const events = await transactionEvents(server, apiKey!, uuidTrx);
    expect(events.transaction.attempts.id_frontal).toBe(2);
    expect(events.transaction.lockedUntil).not.toBeNull();
    await expect
      .poll(async () => (await transactionEvents(server, apiKey!, uuidTrx)).lifecycle.map((e) => JSON.parse(e.event) as { status: string; description: string }), { timeout: 5_000 })
      .toContainEqual(expect.objectContaining({ status: 'FAIL', description: 'Finalizado por reintentos' }));
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
