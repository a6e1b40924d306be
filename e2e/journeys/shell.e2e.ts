import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { errorTexts } from '@kyc/contracts/texts';
import { launchBrowser, newPhoneOrDesktop, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { transactionEvents } from '../support/transactions.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(() => stopAll({ browser, server }));

describe.each<ViewportName>(['phone', 'desktop'])('the flow shell on a %s', (viewport) => {
  it('entry with the demo grantor → consent → preparation → cancel → back to the entry', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(`${server.url}/demo`);
    await expect.poll(() => page.getByRole('heading', { name: 'Inicia tu pre-registro' }).isVisible()).toBe(true);
    const start = page.getByRole('button', { name: 'EMPEZAR' });
    await expect.poll(() => start.isEnabled(), { timeout: 5_000 }).toBe(true);
    const logo = page.getByRole('img', { name: 'Demo' });
    expect(await logo.count()).toBeGreaterThan(0);
    await screenshot(page, `${viewport}-01-entry`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
    expect(uuidTrx).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.evaluate(() => localStorage.getItem('completado'))).toBe('false');

    await start.click();
    await page.waitForURL('**/terminos');
    await expect.poll(() => page.getByText('Ciudad de México', { exact: false }).first().isVisible()).toBe(true);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Financiera Demo');
    expect(text).not.toContain('{OTORGANTE}');
    expect(text).not.toContain('{enter}');
    await screenshot(page, `${viewport}-02-terminos`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('checkbox').check();
    await page.waitForURL('**/preparacion_identificacion', { timeout: 5_000 });
    await expect.poll(() => page.getByRole('button', { name: 'CAPTURAR IDENTIFICACIÓN' }).isVisible()).toBe(true);
    await screenshot(page, `${viewport}-03-preparacion`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'CANCELAR' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Cancelar proceso').first().isVisible()).toBe(true);
    await screenshot(page, `${viewport}-04-cancelar-modal`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'SÍ' }).click();
    await page.waitForURL(`${server.url}/demo`, { timeout: 5_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'Inicia tu pre-registro' }).isVisible()).toBe(true);

    const events = await transactionEvents(server, 'demo', uuidTrx!);
    const acceptance = events.audit.find((event) => event.paso === 'terminos');
    expect(acceptance, 'the consent acceptance is recorded').toBeDefined();
    expect(JSON.parse(acceptance!.dato)).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const cancellation = events.lifecycle.find((event) => event.event.includes('Cancelado'));
    expect(cancellation, 'the cancellation is recorded').toBeDefined();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a wrong api key shows 'Verifica tu URL'", async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await page.goto(`${server.url}/esta-llave-no-existe`);
    await expect.poll(() => page.getByText(errorTexts.badUrlTitle).first().isVisible(), { timeout: 5_000 }).toBe(true);
    expect(await page.getByText(errorTexts.badUrl).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'REINTENTAR' }).isVisible()).toBe(true);
    await screenshot(page, `${viewport}-05-url-invalida`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});
