import { readFile } from 'node:fs/promises';
import { stripAccentsKeepEnye } from '@kyc/fixtures';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { networkTroubleOf, screenshot, type ViewportName } from './browser.js';
import { captureSide } from './camera.js';
import { recordConsents } from './journey-order.js';
import type { RunningServer } from './server.js';

/**
 * The steps of the main journey as a customer takes them in the browser, shared by the journeys that go through
 * them. `shot`, when given, prefixes the screenshots a step takes (e.g. `${shot}-03-verifica`).
 */

export interface Session {
  uuidUser: string;
  uuidTrx: string;
  apikey: string;
  /** The transaction's token the server issued to this browser (X-Transaction-Token). */
  transactionToken: string;
}

/** The session the flow keeps in localStorage. */
export async function session(page: Page): Promise<Session> {
  return page.evaluate(() => ({
    uuidUser: localStorage.getItem('uuidUser') ?? '',
    uuidTrx: localStorage.getItem('uuidTrx') ?? '',
    apikey: localStorage.getItem('apikeyOtorgante') ?? '',
    transactionToken: localStorage.getItem('transactionToken') ?? '',
  }));
}

/** On the entry page: waits for its session (EMPEZAR enabled), EMPEZAR, accepts the terms, on to the ID intro. */
export async function startAndAcceptTerms(page: Page, shot?: string): Promise<void> {
  const start = page.getByRole('button', { name: 'EMPEZAR' });
  try {
    await expect.poll(() => start.isEnabled({ timeout: 1_000 }).catch(() => false), { timeout: 30_000 }).toBe(true);
  } catch (error) {
    // What the entry showed instead (a lockout, 'Verifica tu URL', the network notice) says which call failed.
    const shown = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch((reason: unknown) => `(unreadable: ${String(reason)})`);
    const calls = networkTroubleOf(page.context()).join('\n') || '(none)';
    const report = `EMPEZAR never became enabled on ${page.url()}; the page showed:\n${shown}\nCalls failed or refused:\n${calls}`;
    // Also printed, so a retried attempt that then passes still leaves its cause in the log.
    console.warn(report);
    throw new Error(report, { cause: error });
  }
  if (shot) await screenshot(page, `${shot}-01-inicio`);
  await start.click();
  await page.waitForURL('**/terminos');
  await page.getByRole('checkbox').check();
  if (shot) await screenshot(page, `${shot}-02-terminos`);
  await page.waitForURL('**/preparacion_identificacion', { timeout: 10_000 });
}

/**
 * From the ID intro: both sides of the ID through the camera, up to the results screen. The fake camera must show
 * the front; `showBack` switches it to the back before the second capture reopens it.
 */
export async function captureId(page: Page, showBack: () => Promise<void>, options: { viewport?: ViewportName; shot?: string } = {}): Promise<void> {
  await page.getByRole('button', { name: 'CAPTURAR IDENTIFICACIÓN' }).click();
  await page.getByRole('heading', { name: 'Tómale una foto al frente de tu identificación' }).waitFor();
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
  if (options.viewport === 'desktop') {
    // On a desktop the camera opens with a tip on holding the ID up to the webcam.
    const tip = page.getByRole('dialog');
    await tip.waitFor({ timeout: 20_000 });
    if (options.shot) await screenshot(page, `${options.shot}-02b-sostener`);
    await tip.getByRole('button').first().click();
  }
  await captureSide(page, 'CAPTURAR FRENTE');
  await showBack();
  await captureSide(page, 'CAPTURAR REVERSO');
  await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
}

/** The results screen: the name read from the ID is the holder's; CONTINUAR. */
export async function confirmData(page: Page, expectedName: unknown, shot?: string): Promise<void> {
  await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
  // The generated card prints accents the reader may drop (the person can correct them here): letter for letter.
  expect(stripAccentsKeepEnye(await page.locator('input[name="nombreCompleto"]').inputValue())).toBe(stripAccentsKeepEnye(String(expectedName)));
  if (shot) await screenshot(page, `${shot}-03-verifica`);
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
}

/** The address form: postal code 06700 fills the colonia and the municipality; street and number; GUARDAR. */
export async function fillAddress(page: Page, shot?: string): Promise<void> {
  await page.waitForURL('**/identificacion_edit', { timeout: 10_000 });
  await page.getByRole('heading', { name: 'Verifica y completa tu dirección actual' }).waitFor();
  const field = (name: string) => page.locator(`[name="${name}"]`);
  await field('codigoPostal').fill('06700');
  await expect.poll(() => field('colonia').inputValue(), { timeout: 10_000 }).toBe('Roma Norte');
  expect(await field('delegacion').inputValue()).toMatch(/Cuauht[ée]moc/i);
  await field('calle').fill('Calle Hidalgo');
  await field('numeroExterior').fill('59');
  if (shot) await screenshot(page, `${shot}-04-direccion`);
  await page.getByRole('button', { name: 'GUARDAR' }).click();
}

/** The electronic-means clause and the authorization, each read and accepted, up to /video_token. */
export async function acceptConsents(page: Page, shot?: string): Promise<void> {
  await page.waitForURL('**/clausula', { timeout: 10_000 });
  await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();
  await page.waitForURL('**/validacion_documento');
  await page.getByRole('heading', { name: 'Cláusula de medios electrónicos' }).waitFor();
  if (shot) await screenshot(page, `${shot}-05-clausula`);
  await page.getByRole('checkbox').check();
  await page.waitForURL('**/autorizacion_solicitud', { timeout: 10_000 });
  await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();
  await page.waitForURL('**/autorizacion_documento');
  await page.getByRole('heading', { name: 'Autorización para consultar tu información' }).waitFor();
  await page.getByRole('checkbox').check();
  await page.waitForURL('**/video_token', { timeout: 10_000 });
}

/** The face video's intro screen ('Confirmación de identidad'), shown. */
export async function faceVideoIntro(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Confirmación de identidad' }).waitFor();
}

/** CONTINUAR on the intro opens the camera and the microphone: the positioning prompt. */
export async function openFaceCamera(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
  await page.getByText('Ubica tu rostro de frente para empezar').waitFor({ timeout: 10_000 });
}

/** The reading instruction, then the code's first digit on screen (screenshot `name`, when given). */
export async function watchDigits(page: Page, name?: string): Promise<void> {
  await page.getByText('Lee cada número en voz alta y claro conforme aparezca').waitFor({ timeout: 40_000 });
  await page.locator('.face-video__digit[data-slot="1"]').waitFor({ timeout: 15_000 });
  if (name) await screenshot(page, name);
}

/** From the intro: CONTINUAR, the positioning prompt, the code's digits (screenshots `${shot}-rostro`, `${shot}-digito`). */
export async function recordFaceVideo(page: Page, shot: string): Promise<void> {
  await faceVideoIntro(page);
  await openFaceCamera(page);
  await screenshot(page, `${shot}-rostro`);
  await watchDigits(page, `${shot}-digito`);
}

/**
 * A fresh session on `apikey`'s grantor whose consents are recorded and whose ID front (`frontPng`) was read by the
 * real /v2/ocr, as the ID capture leaves it: the face video's own tests start from there without the camera.
 */
export async function sessionWithIdFront(page: Page, server: RunningServer, frontPng: string, apikey = 'demo'): Promise<Session> {
  await page.goto(`${server.url}/${apikey}`);
  const start = page.getByRole('button', { name: 'EMPEZAR' });
  await expect.poll(() => start.isEnabled()).toBe(true);
  await start.click();
  await page.waitForURL('**/terminos');
  const s = await session(page);
  expect(s.apikey).toBe(apikey);
  // The consents come before the ID and the face video, for the server and the browser alike.
  await recordConsents(page, server, ['terminos', 'clausula', 'autorizacion']);
  const form = new FormData();
  form.append('uuidUser', s.uuidUser);
  form.append('side', 'front');
  form.append('originOS', 'android');
  form.append('ine', new Blob([await readFile(frontPng)], { type: 'image/png' }), 'frente.png');
  const response = await fetch(`${server.url}/v2/ocr`, {
    method: 'POST',
    headers: { transaccion: s.uuidTrx, cliente: s.uuidUser, apikey: s.apikey },
    body: form,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { payload: { ocrData: Record<string, unknown> } };
  await page.evaluate((ocrData) => localStorage.setItem('ocrFront', JSON.stringify(ocrData)), body.payload.ocrData);
  return s;
}

/**
 * How the face video ended: `route` when the flow went on there, else `dialog: <its error text>` when the
 * 'Lo sentimos' dialog showed first (the text makes a failed expectation say why).
 */
export async function faceVideoOutcome(page: Page, route: string, timeout: number): Promise<string> {
  return Promise.race([
    page
      .getByRole('dialog', { name: 'Lo sentimos' })
      .waitFor({ timeout })
      .then(async () => `dialog: ${await page.getByTestId('face-error').textContent()}`),
    page.waitForURL(`**/${route}`, { timeout }).then(() => route),
  ]);
}
