import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli } from '../support/transactions.js';

/** RFC 6238 as an authenticator app computes it (SHA-1, 6 digits, 30 s), written here so the test checks the server. */
function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const holderName = 'María Fernanda Núñez Zúñiga';
const curp = 'NUZM900101MDFXXX09';

let server: RunningServer;
let browser: Browser;
let uuidTrx: string;

beforeAll(async () => {
  // Plain http on 127.0.0.1: the session cookie cannot be Secure here (README "Review console").
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
  browser = await launchBrowser();
  // A case of the demo grantor, created through the flow's API: a lifecycle event with the name, then the CURP.
  const headers = { 'content-type': 'application/json', apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  uuidTrx = headers.transaccion;
  const event = {
    trx_id: headers.transaccion,
    company_id: '00000000-0000-4000-8000-000000000001',
    client_id: headers.cliente,
    step: 'identificacion',
    event: JSON.stringify({ status: 'OK', step: 'identificacion', description: 'Capturó su identificación' }),
    origin: 'celd',
    nombreCompleto: holderName,
  };
  expect((await fetch(`${server.url}/v1/update_cycle`, { method: 'POST', headers, body: JSON.stringify(event) })).status).toBe(200);
  // The person accepted the terms first: the server refuses the CURP check before them (the journey's order).
  const dato = JSON.stringify({ version: 'e2e', sha256: 'a'.repeat(64), userAgent: 'e2e' });
  const consent = { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso: 'terminos', tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() };
  expect((await fetch(`${server.url}/v1/celd_events`, { method: 'POST', headers, body: JSON.stringify(consent) })).status).toBe(200);
  // The partner's server records the CURP check with its secret server key (the publishable key alone is refused).
  const renapo = await fetch(`${server.url}/v1/renapo`, { method: 'POST', headers: { ...headers, authorization: 'Bearer demo-secret' }, body: JSON.stringify({ uuid: headers.cliente, turn: -1, curp }) });
  expect(renapo.status).toBe(200);
});

afterAll(() => stopAll({ browser, server }));

describe.each<ViewportName>(['desktop', 'phone'])('the review console on a %s', (viewport) => {
  it('signs in with password and TOTP code, finds the case by CURP, signs out', async () => {
    const email = `admin-${viewport}@demo.example`;
    const created = await grantorCli(server, ['console-user-create', '--grantor', '00000000-0000-4000-8000-000000000001', '--email', email, '--role', 'admin']);
    const password = /password: (\S+)/.exec(created)![1]!;
    const secret = new URL(/totp: +(\S+)/.exec(created)![1]!).searchParams.get('secret')!;

    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    const cspReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });

    const response = await page.goto(`${server.url}/console`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.getByRole('heading', { name: 'Consola de revisión' }).isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-01-sign-in`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill('no-es-la-contraseña');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('incorrectos');
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    const codeInput = page.getByLabel('Código de verificación');
    await expect.poll(() => codeInput.isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-${viewport}-02-code`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await codeInput.fill(totp(secret));
    await page.getByRole('button', { name: 'Verificar código' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Expedientes' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const row = page.getByRole('row').filter({ hasText: holderName });
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await row.textContent()).toContain(uuidTrx.slice(0, 8));
    expect(await row.textContent()).toContain('En curso: identificación');
    // The cookie is HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await screenshot(page, `console-${viewport}-03-cases`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Buscar por folio, nombre o CURP').fill(curp.toLowerCase());
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => page.getByText('Página 1: 1 expediente').isVisible()).toBe(true);
    await page.getByLabel('Buscar por folio, nombre o CURP').fill('PEREZ GOMEZ');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => page.getByText('No hay expedientes que coincidan.').isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-04-no-results`);

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect.poll(() => page.getByText('Cerraste sesión.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByLabel('Correo electrónico').isVisible()).toBe(true);

    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
    await context.close();
  });
});
