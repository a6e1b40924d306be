import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli } from '../support/transactions.js';
import { totp } from '../support/totp.js';

const otherId = '00000000-0000-4000-8000-0000000000e9';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
  browser = await launchBrowser();
  await grantorCli(server, ['create', '--name', 'Otra Financiera', '--id', otherId]);
});
afterAll(() => stopAll({ browser, server }));

/** Issue #16: a platform operator chooses a grantor under the top bar and opens its funnel and settings. */
describe.each<ViewportName>(['desktop', 'phone'])('the platform operator on a %s', (viewport) => {
  it('chooses a grantor, opens its funnel and its settings; every screen passes axe', async () => {
    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    const cspReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    const email = `operator-${viewport}@platform.example`;
    const created = await grantorCli(server, ['console-user-create', '--email', email, '--role', 'operator']);
    const secret = new URL(/totp: +(\S+)/.exec(created)![1]!).searchParams.get('secret')!;
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(/password: (\S+)/.exec(created)![1]!);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByLabel('Código de verificación').fill(totp(secret));
    await page.getByRole('button', { name: 'Verificar código' }).click();

    const picker = page.getByLabel('Otorgante');
    await expect.poll(() => picker.isVisible(), { timeout: 10_000 }).toBe(true);
    await picker.selectOption({ label: 'Otra Financiera' });
    await expect.poll(() => page.getByText('Estás viendo los datos de Otra Financiera.').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No hay expedientes que coincidan.').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-operator-${viewport}-01-picker-cases`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Embudo' }).click();
    await expect.poll(() => page.getByText('Nadie abrió el enlace en este periodo.').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-operator-${viewport}-02-funnel`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Configuración' }).click();
    const colour = page.getByRole('textbox', { name: 'Color primario COLOR_PRIMARIO' });
    await expect.poll(() => colour.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByTestId('flow-preview').isVisible()).toBe(true);
    await screenshot(page, `console-operator-${viewport}-03-settings`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
    await context.close();
  });
});
