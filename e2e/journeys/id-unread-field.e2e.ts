// No dead end on "Verifica tu información" (docs/flow.md §4): an INE whose CURP cannot be read (covered on the
// card) gives the read-only INE form an empty CURP; the person types it, CONTINUAR goes on, and what they typed is
// marked as typed in data_user and reported to the server.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DocumentFixture } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { cardOnCamera, ineOfToday, openEntry, showOnCamera } from '../support/camera.js';
import { captureId } from '../support/journey-steps.js';
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
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-unread-'));
  card = await ineOfToday(0, 'sin-curp', false);
  // A sticker over the CURP (the generator's own INE design prints it at x 675, y 826 of 2000x1262).
  const sticker = await sharp({ create: { width: 640, height: 58, channels: 3, background: '#efe0ea' } })
    .png()
    .toBuffer();
  const covered = async (side: string, png: Buffer) =>
    side === 'front'
      ? sharp(png)
          .composite([{ input: sticker, left: 668, top: 788 }])
          .png()
          .toBuffer()
      : png;
  Object.assign(y4m, await cardOnCamera(work, card, covered));
  ({ server, browser, camera } = await startCameraRig(work, y4m.front));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

async function typeTheUnreadCurp(viewport: ViewportName): Promise<void> {
  const curp = String(card.truth.ocrFront.curp);
  await showOnCamera(camera, y4m.front);
  const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
  await (await openEntry(page, `${server.url}/demo`)).click();
  await page.getByRole('checkbox').check();
  await captureId(page, () => showOnCamera(camera, y4m.back), { viewport });
  await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
  expect(await page.locator('form').getAttribute('data-form')).toBe('ineApi');

  // What was read stays read-only; the CURP that was not read is typed by the person, with a hint saying why.
  const field = page.locator('input[name="curp"]');
  expect(await field.inputValue()).toBe('');
  expect(await field.getAttribute('readonly')).toBeNull();
  expect(await page.locator('input[name="nombreCompleto"]').getAttribute('readonly')).not.toBeNull();
  await expect.poll(() => page.locator('[data-unread="true"]').textContent()).toContain('No pudimos leer este dato');
  expect(await page.getByText('Debes ingresar un valor válido').count()).toBe(0);
  await screenshot(page, `${viewport}-30-curp-no-leida`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await field.fill(curp);
  await screenshot(page, `${viewport}-31-curp-escrita`);
  const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
  await page.waitForURL((url) => !url.pathname.includes('resultados_identificacion'), { timeout: 10_000 });

  const saved = JSON.parse((await page.evaluate(() => localStorage.getItem('data_user'))) ?? '[]') as Array<{ description: string; value: string; typed?: boolean }>;
  expect(saved).toContainEqual({ description: 'curp', value: curp, typed: true });
  expect(saved.find((d) => d.description === 'nombreCompleto')?.typed).toBeUndefined();
  await expect
    .poll(async () => (await transactionEvents(server, 'demo', uuidTrx!)).lifecycle.map((e) => JSON.parse(e.event) as { step: string; description: string }), { timeout: 5_000 })
    .toContainEqual(expect.objectContaining({ step: 'resultados_identificacion', description: 'Datos escritos por la persona: curp' }));
  expect(pageErrors).toEqual([]);
  await context.close();
}

describe('an ID field the reader could not read, with the fake camera and the real OCR', () => {
  it('phone: the unread CURP is typed by the person and marked as typed', () => typeTheUnreadCurp('phone'), 240_000);
  it('desktop: the unread CURP is typed by the person and marked as typed', () => typeTheUnreadCurp('desktop'), 240_000);
});
