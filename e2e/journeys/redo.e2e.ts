import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderProof } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';
import { askRedo, giveCaseEmail, mailedRedoLink, sendLifecycle, signInReviewer } from '../support/redo.js';

const demoId = '00000000-0000-4000-8000-000000000001';
const holder = { nombres: 'NOEMÍ', apellidoPaterno: 'LÓPEZ', apellidoMaterno: 'ESPINOZA' };
const address = { street: 'CALLE HIDALGO', exteriorNumber: '59', interiorNumber: null, settlement: 'ROMA NORTE', postalCode: '06700', municipality: 'CUAUHTÉMOC', state: 'CIUDAD DE MÉXICO' } as const;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A finished case of the demo grantor through the flow's API (consents, the end), with an e-mail address. */
async function finishedCase(email: string): Promise<{ uuidTrx: string }> {
  const headers = { apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  const post = (url: string, body: unknown) => fetch(`${server.url}${url}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const event = (step: string, status: string, description: string) => sendLifecycle(server, headers, { grantorId: demoId, step, status, description, name: 'Noemí López Espinoza' });
  await event('terminos', 'OK', 'Aceptó el aviso de privacidad');
  const dato = JSON.stringify({ version: 'e2e', sha256: 'c'.repeat(64), userAgent: 'e2e' });
  const consent = { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso: 'terminos', tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() };
  expect((await post('/v1/celd_events', consent)).status).toBe(200);
  await event('finished', 'FAIL', 'Proceso concluido');
  await giveCaseEmail(server, headers.transaccion, email);
  return { uuidTrx: headers.transaccion };
}

describe('a review asks the customer to redo one step (issue #16)', () => {
  it('the reviewer asks for the proof of address again; the customer sends only that from the e-mailed link; the case is back in review', async () => {
    const email = 'noemi@correo.example';
    const { uuidTrx } = await finishedCase(email);
    // The console: open the case and ask for the proof of address again.
    const staff = await newWatchedPage(browser, 'desktop');
    const desk = staff.page;
    await signInReviewer(desk, server, demoId, 'redo-reviewer@demo.example');
    const row = desk.getByRole('row').filter({ hasText: 'Noemí' });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    await row.getByRole('button', { name: `Abrir el expediente ${uuidTrx.slice(0, 8)}` }).click();
    await askRedo(desk, { step: 'proof', reason: 'proof_outdated', note: 'El recibo tiene más de tres meses.' });
    await screenshot(desk, 'redo-desktop-01-console-asked');
    expect(await seriousA11yViolations(desk)).toEqual([]);

    // The e-mail (local outbox): its link, opened on this server.
    const link = await mailedRedoLink(server, email);

    // The customer, on a phone: only the proof of address, then the finished screen.
    const bill = await renderProof({ seed: 'redo-e2e', layout: 'luz', referenceDate: new Date().toISOString().slice(0, 10), ageDays: 15, holder, address });
    const billFile = path.join(await mkdtemp(path.join(tmpdir(), 'redo-e2e-')), 'recibo.png');
    await writeFile(billFile, bill.png);
    const customer = await newWatchedPage(browser, 'phone');
    const page = customer.page;
    await page.goto(link);
    await expect.poll(() => page.getByRole('heading', { name: 'Repite un paso de tu solicitud' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText('tu comprobante de domicilio').isVisible()).toBe(true);
    await screenshot(page, 'redo-phone-01-intro');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Tu comprobante de domicilio' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.locator('input[type=file]').setInputFiles(billFile);
    await expect.poll(() => page.getByRole('heading', { name: 'Revisa tu foto' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByRole('button', { name: 'ENVIAR' }).click();
    await expect.poll(() => page.getByRole('heading', { name: '¡Listo!' }).isVisible(), { timeout: 60_000 }).toBe(true);
    await screenshot(page, 'redo-phone-02-finished');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The link works once.
    await page.goto(link);
    await expect.poll(() => page.getByText('Este enlace ya fue utilizado').isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'redo-phone-03-used');

    // Back in the console: the case is in review again, the timeline says so.
    await desk.reload();
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    await row.getByRole('button', { name: `Abrir el expediente ${uuidTrx.slice(0, 8)}` }).click();
    await expect.poll(() => desk.getByText('El expediente vuelve a revisión', { exact: false }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await desk.getByText('la persona ya lo envió', { exact: false }).first().isVisible()).toBe(true);
    expect(staff.pageErrors).toEqual([]);
    expect(customer.pageErrors).toEqual([]);
    await staff.context.close();
    await customer.context.close();
  }, 240_000);
});
