import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pngToY4m, renderProof } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhoneOrDesktop, newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { openEntry, showOnCamera } from '../support/camera.js';
import { startCameraRig, stopAll } from '../support/rig.js';
import type { RunningServer } from '../support/server.js';
import { recordConsents, seedIdFront } from '../support/journey-order.js';

let server: RunningServer;
let browser: Browser;
let work: string;
let camera: string;
let blankY4m: string;

const address = {
  street: 'CALLE HIDALGO',
  exteriorNumber: '59',
  interiorNumber: null,
  settlement: 'ROMA NORTE',
  postalCode: '06700',
  municipality: 'CUAUHTÉMOC',
  state: 'CIUDAD DE MÉXICO',
} as const;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-proof-'));
  const bill = await renderProof({ seed: 'e2e-1', layout: 'luz', referenceDate: new Date().toISOString().slice(0, 10), ageDays: 15, address });
  const png = path.join(work, 'bill.png');
  await writeFile(png, bill.png);
  const billY4m = path.join(work, 'bill.y4m');
  // A phone held upright over the page: a portrait frame.
  await pngToY4m(png, billY4m, { width: 1080, height: 1440, seconds: 1, fps: 5 });
  // A blank sheet: nothing to read.
  const blank = path.join(work, 'blank.png');
  await sharp({ create: { width: 1080, height: 1440, channels: 3, background: '#e9e6df' } })
    .png()
    .toFile(blank);
  blankY4m = path.join(work, 'blank.y4m');
  await pngToY4m(blank, blankY4m, { width: 1080, height: 1440, seconds: 1, fps: 5 });
  ({ server, browser, camera } = await startCameraRig(work, billY4m));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

describe('proof of address and the address form', () => {
  it('proof captured with the fake camera → form pre-filled → lookup dropdown with Otro → GUARDAR rules', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');
    await openEntry(page, `${server.url}/demo`);
    // The journey's order: what comes before this screen is recorded (terms; the ID for the address steps).
    await recordConsents(page, server, ['terminos']);
    await seedIdFront(page, server);

    await page.goto(`${server.url}/preparacion_comprobante`);
    await page.getByRole('heading', { name: 'Comprobante de domicilio' }).waitFor();
    await screenshot(page, 'phone-30-preparacion-comprobante');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'CAPTURAR', exact: true }).click();

    const capture = page.getByRole('button', { name: 'CAPTURAR COMPROBANTE' });
    await expect.poll(() => capture.isEnabled(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'phone-31-comprobante-camara');
    await capture.click();
    await page.getByRole('heading', { name: 'Revisa tu foto' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'phone-32-comprobante-vista-previa');
    await page.getByRole('button', { name: 'ENVIAR' }).click();

    await page.waitForURL('**/identificacion_edit', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Verifica y completa tu dirección actual' }).waitFor();
    expect(await page.locator('form[data-source]').getAttribute('data-source')).toBe('comprobante');
    const field = (name: string) => page.locator(`[name="${name}"]`);
    expect(await field('codigoPostal').inputValue()).toBe('06700');
    expect(await field('calle').inputValue()).toBe('CALLE HIDALGO');
    expect(await field('numeroExterior').inputValue()).toBe('59');
    expect(await field('colonia').inputValue()).toBe('ROMA NORTE');
    expect(await field('colonia').evaluate((el) => el.tagName)).toBe('INPUT');
    await screenshot(page, 'phone-33-direccion-prellenada');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const save = page.getByRole('button', { name: 'GUARDAR' });
    expect(await save.isEnabled()).toBe(true);

    // The user types another postal code: 4 digits do nothing, the 5th looks it up; several settlements → dropdown.
    await field('codigoPostal').fill('5214');
    expect(await save.isDisabled()).toBe(true);
    await field('codigoPostal').pressSequentially('0');
    await expect.poll(() => field('colonia').evaluate((el) => el.tagName), { timeout: 10_000 }).toBe('SELECT');
    const options = await field('colonia').locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['Álamos', 'Bosques de la Cañada', 'La Asunción', 'San Jerónimo Chicahualco', 'Otro']));
    expect(await field('delegacion').inputValue()).toBe('Metepec');
    expect(await save.isDisabled()).toBe(true);

    await field('colonia').selectOption('Otro');
    await field('otraColonia').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await field('otraColonia').fill('Barrio Nuevo');
    expect(await save.isEnabled()).toBe(true);
    await field('numeroExterior').fill('');
    expect(await save.isDisabled()).toBe(true);
    await field('numeroExterior').fill('59');
    await screenshot(page, 'phone-34-direccion-otra-colonia');

    await save.click();
    await page.waitForURL('**/clausula', { timeout: 5_000 });
    const data = JSON.parse((await page.evaluate(() => localStorage.getItem('data_user'))) ?? '[]') as Array<{ description: string; value: string }>;
    const saved = Object.fromEntries(data.map((d) => [d.description, d.value]));
    expect(saved).toMatchObject({ codigoPostal: '52140', colonia: 'Barrio Nuevo', calle: 'CALLE HIDALGO', calleCompleta: 'CALLE HIDALGO 59', delegacion: 'Metepec' });
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('desktop: an unreadable proof asks again (VOLVER A INTENTAR) until the attempts end on the folio screen', async () => {
    await showOnCamera(camera, blankY4m);
    const context = await newPhoneOrDesktop(browser, 'desktop');
    const page = await context.newPage();
    await openEntry(page, `${server.url}/demo`);
    // The journey's order: what comes before this screen is recorded (terms; the ID for the address steps).
    await recordConsents(page, server, ['terminos']);
    await seedIdFront(page, server);
    const folio = (await page.evaluate(() => localStorage.getItem('uuidTrx')))?.split('-')[0];
    await page.goto(`${server.url}/comprobante`);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const capture = page.getByRole('button', { name: 'CAPTURAR COMPROBANTE' });
      await expect.poll(() => capture.isEnabled(), { timeout: 20_000 }).toBe(true);
      if (attempt === 1) await screenshot(page, 'desktop-31-comprobante-camara');
      await capture.click();
      await page.getByRole('button', { name: 'ENVIAR' }).click();
      if (attempt < 3) {
        await page.getByText('Por favor captura nuevamente tu comprobante.').waitFor({ timeout: 30_000 });
        if (attempt === 1) {
          await screenshot(page, 'desktop-35-comprobante-ilegible');
          expect(await seriousA11yViolations(page)).toEqual([]);
        }
        await page.getByRole('button', { name: 'VOLVER A INTENTAR' }).click();
      }
    }
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText(String(folio), { exact: true }).count()).toBe(1);
    await screenshot(page, 'desktop-36-comprobante-intentos');
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await page.waitForURL('**/demo');
    await context.close();
  }, 120_000);

  it('desktop: the form with one settlement filling colonia', async () => {
    const context = await newPhoneOrDesktop(browser, 'desktop');
    const page = await context.newPage();
    await openEntry(page, `${server.url}/demo`);
    // The journey's order: what comes before this screen is recorded (terms; the ID for the address steps).
    await recordConsents(page, server, ['terminos']);
    await seedIdFront(page, server);
    await page.goto(`${server.url}/identificacion_edit`);
    await page.getByRole('heading', { name: 'Verifica y completa tu dirección actual' }).waitFor();
    await page.locator('[name="codigoPostal"]').fill('06700');
    await expect.poll(() => page.locator('[name="colonia"]').inputValue(), { timeout: 10_000 }).toBe('Roma Norte');
    await screenshot(page, 'desktop-33-direccion');
    await context.close();
  }, 60_000);
});
