import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, stripAccentsKeepEnye, type GroundTruth } from '@kyc/fixtures';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { cameraFrame, showOnCamera, startIdCapture } from '../support/camera.js';
import { startCameraRig, stopAll } from '../support/rig.js';
import type { RunningServer } from '../support/server.js';
import { fixtureDay } from '../support/fixture-day.js';

let server: RunningServer;
let browser: Browser;
let work: string;
let camera: string;
let frontY4m: string;
let backY4m: string;
let front: GroundTruth;
let modelFrontY4m: string;
let modelFront: GroundTruth;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-id-'));
  await generateFixtureSet({ outDir: work, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: fixtureDay });
  front = JSON.parse(await readFile(path.join(work, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  frontY4m = path.join(work, 'front.y4m');
  backY4m = path.join(work, 'back.y4m');
  await cameraFrame(path.join(work, 'ine-000-front-clean.png'), frontY4m);
  await cameraFrame(path.join(work, 'ine-000-back-clean.png'), backY4m);
  // The same holder's card drawn as the real model G/H (2019 on), read by its labels.
  const models = path.join(work, 'g-h');
  await generateFixtureSet({ outDir: models, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: fixtureDay, ineModel: 'g-h' });
  modelFront = JSON.parse(await readFile(path.join(models, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  modelFrontY4m = path.join(work, 'front-g-h.y4m');
  await cameraFrame(path.join(models, 'ine-000-front-clean.png'), modelFrontY4m);
  ({ server, browser, camera } = await startCameraRig(work, frontY4m));
}, 120_000);

afterAll(() => stopAll({ browser, server, work }));

async function captureSide(page: Page, label: 'CAPTURAR FRENTE' | 'CAPTURAR REVERSO', shot: string): Promise<void> {
  const capture = page.getByRole('button', { name: label });
  await expect.poll(() => capture.isEnabled(), { timeout: 20_000 }).toBe(true);
  await screenshot(page, `${shot}-camara`);
  await capture.click();
  await page.getByRole('heading', { name: 'Ajusta tu identificación/comprobante' }).waitFor({ timeout: 20_000 });
  await screenshot(page, `${shot}-ajuste`);
  await page.getByRole('button', { name: 'AJUSTE LISTO' }).click();
  await page.getByRole('heading', { name: 'Revisa tu captura' }).waitFor();
  const save = page.getByRole('button', { name: 'GUARDAR' });
  expect(await save.isDisabled()).toBe(true);
  await page.getByRole('checkbox', { name: 'Confirmo que la captura es clara y los datos legibles.' }).check();
  await save.click();
  await page.getByRole('heading', { name: /Analizando/ }).waitFor();
}

describe('ID capture with the fake camera and the real OCR', () => {
  it('INE front and back → the confirmation form pre-filled with what was read → address step', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');

    await startIdCapture(page, `${server.url}/demo`);

    await captureSide(page, 'CAPTURAR FRENTE', 'phone-10-frente');
    await showOnCamera(camera, backY4m);
    await captureSide(page, 'CAPTURAR REVERSO', 'phone-11-reverso');

    await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
    await screenshot(page, 'phone-12-verifica');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const form = page.locator('form[data-form]');
    expect(await form.getAttribute('data-form')).toMatch(/^ine/);
    expect(stripAccentsKeepEnye(await page.locator('input[name="nombreCompleto"]').inputValue())).toBe(stripAccentsKeepEnye(String(front.ocrFront?.nombreCompleto)));
    expect(await page.locator('input[name="curp"]').inputValue()).toBe(front.ocrFront?.curp);

    const stored = await page.evaluate(() => ({ ocrFront: localStorage.getItem('ocrFront'), ocrBack: localStorage.getItem('ocrBack') }));
    expect(stored.ocrFront).toContain(String(front.ocrFront?.curp));
    expect(stored.ocrBack).toBeTruthy();

    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await page.waitForURL('**/identificacion_edit', { timeout: 5_000 });
    const userData = await page.evaluate(() => localStorage.getItem('data_user'));
    expect(userData).toContain('31/12/');
    // The confirmed form fires the Renapo and INE checks (fire-and-forget); the server keeps their results.
    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
    await expect
      .poll(
        async () => {
          const response = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { authorization: 'Bearer demo-secret' } });
          return ((await response.json()).payload.evidence as { kind: string }[]).map((e) => e.kind);
        },
        { timeout: 10_000 },
      )
      .toEqual(expect.arrayContaining(['renapo', 'ine']));
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('an INE drawn as model G/H passes the capture check and is read by its labels', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');
    await showOnCamera(camera, modelFrontY4m);

    await startIdCapture(page, `${server.url}/demo`);
    await captureSide(page, 'CAPTURAR FRENTE', 'phone-13-frente-g-h');
    await showOnCamera(camera, backY4m);
    await captureSide(page, 'CAPTURAR REVERSO', 'phone-14-reverso-g-h');

    await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
    expect(await page.locator('form[data-form]').getAttribute('data-form')).toMatch(/^ine/);
    // Model G/H prints names without accents: compared as printed.
    expect(await page.locator('input[name="nombreCompleto"]').inputValue()).toBe(String(modelFront.ocrFront?.nombreCompleto));
    expect(await page.locator('input[name="curp"]').inputValue()).toBe(modelFront.ocrFront?.curp);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
