import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DocumentFixture } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { cardOnCamera, ineOfToday, captureSide, showOnCamera, startIdCapture } from '../support/camera.js';
import { startCameraRig, stopAll } from '../support/rig.js';
import type { RunningServer } from '../support/server.js';
import { transactionEvents } from '../support/transactions.js';

let server: RunningServer;
let browser: Browser;
let work: string;
let camera: string;
let expired: DocumentFixture;
const y4m = { front: '', back: '' };

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-validity-'));
  expired = await ineOfToday(0, 'vigencia-vencida', true);
  Object.assign(y4m, await cardOnCamera(work, expired));
  ({ server, browser, camera } = await startCameraRig(work, y4m.front));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

describe('ID validity, with the fake camera and the real OCR', () => {
  it("an expired INE → 'Identificación no válida' → TERMINAR records 'Fecha de vigencia no válida'", async () => {
    const vigencia = String(expired.truth.ocrFront.vigencia);
    expect(Number(vigencia)).toBeLessThan(new Date().getFullYear());
    await showOnCamera(camera, y4m.front);
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');

    await startIdCapture(page, `${server.url}/demo`);
    await captureSide(page, 'CAPTURAR FRENTE');
    await showOnCamera(camera, y4m.back);
    await captureSide(page, 'CAPTURAR REVERSO');
    await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
    expect(await page.locator('input[name="vigencia"]').inputValue()).toBe(vigencia);

    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    const panel = page.getByRole('dialog', { name: 'Identificación no válida' });
    await panel.waitFor();
    await expect
      .poll(() => panel.textContent())
      .toContain('La vigencia de tu identificación no es válida, por favor renueva tu identificación e intenta otro día, si crees que es un error intenta capturarla nuevamente.');
    expect(await panel.getByRole('button', { name: 'CAPTURAR NUEVAMENTE' }).isVisible()).toBe(true);
    await screenshot(page, 'phone-20-vigencia-no-valida');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Nothing was saved for an ID that is not valid.
    expect(await page.evaluate(() => localStorage.getItem('data_user') ?? '')).not.toContain('vigencia');

    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
    expect(uuidTrx).toBeTruthy();
    await panel.getByRole('button', { name: 'TERMINAR' }).click();
    await page.waitForURL((url) => url.pathname === '/demo', { timeout: 5_000 });

    await expect
      .poll(async () => (await transactionEvents(server, 'demo', uuidTrx!)).lifecycle.map((e) => JSON.parse(e.event) as { status: string; description: string }), { timeout: 5_000 })
      .toContainEqual(expect.objectContaining({ status: 'INCOMPLETED', description: 'Fecha de vigencia no válida' }));
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
