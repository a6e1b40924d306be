import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderProof } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli } from '../support/transactions.js';

const demoId = '00000000-0000-4000-8000-000000000001';
const holder = { nombres: 'NOEMÍ', apellidoPaterno: 'LÓPEZ', apellidoMaterno: 'ESPINOZA' };
const address = { street: 'CALLE HIDALGO', exteriorNumber: '59', interiorNumber: null, settlement: 'ROMA NORTE', postalCode: '06700', municipality: 'CUAUHTÉMOC', state: 'CIUDAD DE MÉXICO' } as const;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => path.join(root, 'apps/server/dist', file);

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

/** The server's own modules, to give the case the result e-mail's address as the flow's last step does. */
async function serverModules() {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const { createDataCipher, loadDataKey } = (await import(dist('crypto/data-cipher.js'))) as typeof import('../../apps/server/src/crypto/data-cipher.js');
  const { claimResultEmail } = (await import(dist('features/results/result-emails.js'))) as typeof import('../../apps/server/src/features/results/result-emails.js');
  const { listOutbox } = (await import(dist('mail/mailer.js'))) as typeof import('../../apps/server/src/mail/mailer.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  return { config, createDatabase, cipher: createDataCipher(loadDataKey(config).key), claimResultEmail, listOutbox };
}

/** A finished case of the demo grantor through the flow's API (consents, the end), with an e-mail address. */
async function finishedCase(email: string): Promise<{ uuidTrx: string }> {
  const headers = { 'content-type': 'application/json', apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  const post = (url: string, body: unknown) => fetch(`${server.url}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const event = (step: string, status: string, description: string) => ({
    trx_id: headers.transaccion,
    company_id: demoId,
    client_id: headers.cliente,
    step,
    event: JSON.stringify({ status, step, description }),
    origin: 'celd',
    nombreCompleto: 'Noemí López Espinoza',
  });
  expect((await post('/v1/update_cycle', event('terminos', 'OK', 'Aceptó el aviso de privacidad'))).status).toBe(200);
  const dato = JSON.stringify({ version: 'e2e', sha256: 'c'.repeat(64), userAgent: 'e2e' });
  const consent = { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso: 'terminos', tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() };
  expect((await post('/v1/celd_events', consent)).status).toBe(200);
  expect((await post('/v1/update_cycle', event('finished', 'FAIL', 'Proceso concluido'))).status).toBe(200);
  const m = await serverModules();
  const db = m.createDatabase(m.config.database);
  try {
    await m.claimResultEmail(db, m.cipher, headers.transaccion, email, 2);
  } finally {
    await db.destroy();
  }
  return { uuidTrx: headers.transaccion };
}

describe('a review asks the customer to redo one step (issue #16)', () => {
  it('the reviewer asks for the proof of address again; the customer sends only that from the e-mailed link; the case is back in review', async () => {
    const email = 'noemi@correo.example';
    const { uuidTrx } = await finishedCase(email);
    const reviewer = 'redo-reviewer@demo.example';
    const password = /password: (\S+)/.exec(await grantorCli(server, ['console-user-create', '--grantor', demoId, '--email', reviewer, '--role', 'reviewer']))![1]!;

    // The console: open the case and ask for the proof of address again.
    const staff = await newWatchedPage(browser, 'desktop');
    const desk = staff.page;
    await desk.goto(`${server.url}/console`);
    await desk.getByLabel('Correo electrónico').fill(reviewer);
    await desk.getByLabel('Contraseña').fill(password);
    await desk.getByRole('button', { name: 'Iniciar sesión' }).click();
    const row = desk.getByRole('row').filter({ hasText: 'Noemí' });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    await row.getByRole('button', { name: `Abrir el expediente ${uuidTrx.slice(0, 8)}` }).click();
    await expect.poll(() => desk.getByLabel('Solicitar repetir un paso').isVisible(), { timeout: 15_000 }).toBe(true);
    await desk.getByLabel('Solicitar repetir un paso').check();
    await desk.getByLabel('Paso a repetir').selectOption('proof');
    await desk.getByLabel('Motivo').selectOption('proof_outdated');
    await desk.getByLabel('Nota').fill('El recibo tiene más de tres meses.');
    await desk.getByRole('button', { name: 'Enviar enlace para repetir el paso' }).click();
    await expect.poll(() => desk.getByText('Repetición solicitada').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(desk, 'redo-desktop-01-console-asked');
    expect(await seriousA11yViolations(desk)).toEqual([]);

    // The e-mail (local outbox): its link, opened on this server.
    const m = await serverModules();
    const decoded = async () => (await m.listOutbox(server.dataDir, m.cipher)).map((mail) => mail.eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).find((eml) => eml.includes('/repetir?token='));
    await expect.poll(async () => (await decoded()) !== undefined, { timeout: 60_000 }).toBe(true);
    const eml = (await decoded())!;
    const mailed = new URL(/(http\S+\/repetir\?token=[A-Za-z0-9._-]+)/.exec(eml)![1]!);
    const link = `${server.url}${mailed.pathname}${mailed.search}`;

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
