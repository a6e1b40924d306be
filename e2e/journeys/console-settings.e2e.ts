import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli } from '../support/transactions.js';
import { totp } from '../support/totp.js';

const demoId = '00000000-0000-4000-8000-000000000001';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
  browser = await launchBrowser();
});
afterAll(() => stopAll({ browser, server }));

const background = (page: Page) => page.getByTestId('preview-start').evaluate((el) => getComputedStyle(el).backgroundColor);

async function signInAdmin(page: Page, viewport: ViewportName) {
  const email = `settings-admin-${viewport}@demo.example`;
  const created = await grantorCli(server, ['console-user-create', '--grantor', demoId, '--email', email, '--role', 'admin']);
  const password = /password: (\S+)/.exec(created)![1]!;
  const secret = new URL(/totp: +(\S+)/.exec(created)![1]!).searchParams.get('secret')!;
  await page.goto(`${server.url}/console`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByLabel('Código de verificación').fill(totp(secret));
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Expedientes' }).isVisible(), { timeout: 10_000 }).toBe(true);
}

describe.each<ViewportName>(['desktop', 'phone'])('the console settings on a %s', (viewport) => {
  it('an admin edits a colour and sees the preview change, saves it for the flow, creates a key, adds an endpoint; every panel passes axe', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    const cspReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    await signInAdmin(page, viewport);
    await page.getByRole('button', { name: 'Configuración' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Configuración' }).isVisible(), { timeout: 10_000 }).toBe(true);

    // Parameters: an invalid colour is refused under its field; a valid one shows in the preview before saving.
    const colour = page.getByRole('textbox', { name: 'Color primario COLOR_PRIMARIO' });
    await expect.poll(() => colour.isVisible(), { timeout: 10_000 }).toBe(true);
    const before = await background(page);
    await colour.fill('azul');
    await page.getByRole('button', { name: /Guardar cambios/ }).click();
    await expect.poll(() => page.getByText('Debe ser un color como #0B4F8A.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await colour.getAttribute('aria-invalid')).toBe('true');
    const tone = viewport === 'desktop' ? '#7A1F5C' : '#1F6B3A';
    await colour.fill(tone);
    // Editing the refused field clears its refusal.
    await expect.poll(() => page.getByText('Debe ser un color como #0B4F8A.').count()).toBe(0);
    const rgb = `rgb(${[1, 3, 5].map((i) => Number.parseInt(tone.slice(i, i + 2), 16)).join(', ')})`;
    await expect.poll(() => background(page)).toBe(rgb);
    expect(rgb).not.toBe(before);
    await screenshot(page, `console-settings-${viewport}-01-params-preview`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /Guardar cambios/ }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Guardamos 1 parámetro' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const flow = (await (await fetch(`${server.url}/v1/public/params/${demoId}`)).json()) as { payload: { idCampo: string; valor: string }[] };
    expect(flow.payload).toContainEqual({ idCampo: 'COLOR_PRIMARIO', valor: tone });
    await page.getByRole('button', { name: 'Aviso de privacidad' }).click();
    await expect.poll(() => page.getByTestId('flow-preview').textContent()).toContain('Demo');
    await screenshot(page, `console-settings-${viewport}-02-params-notice`);

    // A secret server key, shown once.
    await page.getByRole('button', { name: 'Claves secretas' }).click();
    await page.getByLabel('Etiqueta (para reconocerla)').fill(`Servidor ${viewport}`);
    await page.getByRole('button', { name: 'Crear clave' }).click();
    const key = page.locator('code.secret').first();
    await expect.poll(() => key.textContent(), { timeout: 10_000 }).toMatch(/^sk_live_/);
    const keyText = (await key.textContent())!;
    await screenshot(page, `console-settings-${viewport}-03-key-created`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Ya lo guardé' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('row')
          .filter({ hasText: `Servidor ${viewport}` })
          .isVisible(),
      )
      .toBe(true);
    expect(await page.getByText(keyText).count()).toBe(0);
    // The key works for the partner's server.
    const events = await fetch(`${server.url}/v1/transactions/00000000-0000-4000-8000-00000000e2e0/events`, { headers: { authorization: `Bearer ${keyText}` } });
    expect(events.status).not.toBe(401);

    // A webhook endpoint: a wrong URL is refused under its field, a good one shows its signing secret once.
    await page.getByRole('button', { name: 'Destinos de webhooks' }).click();
    await page.getByLabel('URL del destino (https://)').fill('http://hooks.example/kyc');
    await page.getByRole('button', { name: 'Agregar destino' }).click();
    await expect.poll(() => page.getByText(/Debe ser una dirección https:\/\//).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('URL del destino (https://)').fill(`https://hooks.example/kyc-${viewport}`);
    await page.getByLabel(/Verificación abandonada/).uncheck();
    await page.getByRole('button', { name: 'Agregar destino' }).click();
    await expect.poll(() => page.locator('code.secret').first().textContent(), { timeout: 10_000 }).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ hasText: `https://hooks.example/kyc-${viewport}` });
    await expect.poll(() => row.textContent()).toContain('Revisión decidida');
    expect(await row.textContent()).not.toContain('Verificación abandonada');
    await screenshot(page, `console-settings-${viewport}-04-endpoint-added`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Usuarios y roles' }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('row')
            .filter({ hasText: `settings-admin-${viewport}@demo.example` })
            .isVisible(),
        { timeout: 10_000 },
      )
      .toBe(true);
    await screenshot(page, `console-settings-${viewport}-05-users`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Conservación' }).click();
    await expect.poll(() => page.getByLabel(/Medios biométricos/).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel(/Medios biométricos/).fill('0');
    await page.getByRole('button', { name: 'Guardar política' }).click();
    await expect.poll(() => page.getByText(/Debe ser un número entero de 1 a 3650 días/).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-settings-${viewport}-06-retention`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
    await context.close();
  });
});
