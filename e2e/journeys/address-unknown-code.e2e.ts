import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { openEntry } from '../support/camera.js';
import { recordConsents, seedIdFront } from '../support/journey-order.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;

/** An INE front read in Querétaro: its settlement, municipality and state belong to 76000 (in the sample catalogue). */
const idAddress = {
  nombreCompleto: 'MARIA FERNANDA NUÑEZ ZUÑIGA',
  calle: 'C MORELOS',
  numero: '123',
  colonia: 'CENTRO',
  cp: '76000',
  municipio: 'QUERÉTARO',
  estado: 'QUERÉTARO',
};

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 60_000);

afterAll(() => stopAll({ browser, server }));

/**
 * Issue #21 item 6: a typed postal code missing from the catalogue empties the settlement, municipality and state
 * read from the ID and asks for them; GUARDAR never saves the ID's place with another postal code.
 */
async function unknownPostalCode(viewport: ViewportName): Promise<void> {
  const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
  await openEntry(page, `${server.url}/demo`);
  await recordConsents(page, server, ['terminos']);
  await seedIdFront(page, server, idAddress);
  await page.goto(`${server.url}/identificacion_edit`);
  await page.getByRole('heading', { name: 'Verifica y completa tu dirección actual' }).waitFor();
  const field = (name: string) => page.locator(`[name="${name}"]`);
  const save = page.getByRole('button', { name: 'GUARDAR' });
  expect(await page.locator('form[data-source]').getAttribute('data-source')).toBe('identificacion');
  expect(await field('colonia').inputValue()).toBe('CENTRO');
  expect(await save.isEnabled()).toBe(true);

  // 99999 is in no catalogue: the place that came with 76000 is emptied and asked for.
  await field('codigoPostal').fill('99999');
  const lookup = page.locator('.address__lookup');
  await expect.poll(() => lookup.getAttribute('data-lookup'), { timeout: 10_000 }).toBe('none');
  expect(await lookup.innerText()).toBe('No encontramos ese código postal. Revísalo o escribe tu estado, municipio o alcaldía y colonia.');
  for (const name of ['estado', 'delegacion', 'colonia']) expect(await field(name).inputValue(), name).toBe('');
  expect(await field('calle').inputValue()).toBe('C MORELOS');
  expect(await save.isDisabled()).toBe(true);
  await screenshot(page, `${viewport}-37-direccion-cp-desconocido`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await field('estado').fill('Yucatán');
  await field('delegacion').fill('Mérida');
  expect(await save.isDisabled()).toBe(true);
  await field('colonia').fill('Centro');
  expect(await save.isEnabled()).toBe(true);
  await screenshot(page, `${viewport}-38-direccion-cp-desconocido-completa`);

  await save.click();
  await page.waitForURL('**/clausula', { timeout: 5_000 });
  const data = JSON.parse((await page.evaluate(() => localStorage.getItem('data_user'))) ?? '[]') as Array<{ description: string; value: string }>;
  const saved = Object.fromEntries(data.map((d) => [d.description, d.value]));
  expect(saved).toMatchObject({ codigoPostal: '99999', estado: 'Yucatán', delegacion: 'Mérida', colonia: 'Centro', calle: 'C MORELOS' });
  expect(pageErrors).toEqual([]);
  await context.close();
}

describe('address form: a postal code missing from the catalogue', () => {
  it('phone: the ID’s place is emptied and asked for; GUARDAR waits', async () => {
    await unknownPostalCode('phone');
  }, 90_000);

  it('desktop: the same', async () => {
    await unknownPostalCode('desktop');
  }, 90_000);
});
