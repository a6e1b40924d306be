import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { errorTexts } from '@kyc/contracts/texts';
import { launchBrowser, newPhoneOrDesktop, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';
import { transactionEvents } from '../support/transactions.js';
import { recordConsents, seedFailedFaceVideo } from '../support/journey-order.js';

let server: RunningServer;
let browser: Browser;

const demoGrantorId = '00000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(() => stopAll({ browser, server }));

/** A journey started at the demo grantor's entry route, its parameters loaded. */
async function startJourney(page: Page): Promise<string> {
  await page.goto(`${server.url}/demo`);
  await expect.poll(() => page.getByRole('button', { name: 'EMPEZAR' }).isEnabled(), { timeout: 10_000 }).toBe(true);
  const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx'));
  expect(uuidTrx).toMatch(/^[0-9a-f-]{36}$/);
  // These screens come after the terms and the ID (the journey's order): both as the flow leaves them.
  await recordConsents(page, server, ['terminos']);
  await page.evaluate(() => localStorage.setItem('ocrFront', JSON.stringify({ nombreCompleto: 'MARIA FERNANDA NUÑEZ ZUÑIGA' })));
  return uuidTrx!;
}

/** The document text exactly as shown: its paragraphs, one per line. */
async function shownText(page: Page): Promise<string> {
  return (await page.locator('.consent-document__text p').allInnerTexts()).join('\n');
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function longDateTime(epoch: number): string {
  return new Intl.DateTimeFormat('es-MX', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'America/Mexico_City',
  }).format(new Date(epoch));
}

describe.each<ViewportName>(['phone', 'desktop'])('clause, authorization, final and link screens on a %s', (viewport) => {
  it('clause → authorization: each acceptance recorded with the SHA-256 of the text shown', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const uuidTrx = await startJourney(page);

    await page.goto(`${server.url}/clausula`);
    await expect.poll(() => page.getByRole('button', { name: 'LEER DOCUMENTO' }).isVisible()).toBe(true);
    await screenshot(page, `${viewport}-consents-01-clausula`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();

    await page.waitForURL('**/validacion_documento');
    await expect.poll(() => page.getByRole('heading', { name: 'Cláusula de medios electrónicos' }).isVisible()).toBe(true);
    const clause = await shownText(page);
    expect(clause).toContain('Financiera Demo S.A. de C.V.');
    expect(clause).not.toMatch(/\{(OTORGANTE|USUARIO|enter)\}/);
    await screenshot(page, `${viewport}-consents-02-validacion_documento`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('checkbox').check();
    await page.waitForURL('**/autorizacion_solicitud', { timeout: 5_000 });

    await expect.poll(() => page.getByRole('button', { name: 'LEER DOCUMENTO' }).isVisible()).toBe(true);
    await screenshot(page, `${viewport}-consents-03-autorizacion_solicitud`);
    await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();
    await page.waitForURL('**/autorizacion_documento');
    await expect.poll(() => page.getByRole('heading', { name: 'Autorización para consultar tu información' }).isVisible()).toBe(true);
    const authorization = await shownText(page);
    await screenshot(page, `${viewport}-consents-04-autorizacion_documento`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('checkbox').check();
    // The face video comes before the end (docs/decisions.md).
    await page.waitForURL('**/video_token', { timeout: 5_000 });

    const userAgent = await page.evaluate(() => navigator.userAgent);
    await expect
      .poll(async () =>
        (await transactionEvents(server, 'demo', uuidTrx)).audit
          .filter((e) => e.tipo === 'Aceptación')
          .map((e) => e.paso)
          .sort(),
      )
      .toEqual(['autorizacion', 'clausula', 'terminos']);
    const { audit, lifecycle } = await transactionEvents(server, 'demo', uuidTrx);
    expect(JSON.parse(audit.find((e) => e.paso === 'clausula')!.dato)).toEqual({ version: '1', sha256: sha256(clause), userAgent });
    expect(JSON.parse(audit.find((e) => e.paso === 'autorizacion')!.dato)).toEqual({ version: '1', sha256: sha256(authorization), userAgent });
    expect(lifecycle.map((e) => e.step)).toEqual(expect.arrayContaining(['clausula', 'autorizacion']));
    const dataUser = JSON.parse((await page.evaluate(() => localStorage.getItem('data_user'))) ?? '[]') as Array<{ description: string; value: string }>;
    expect(dataUser).toEqual(
      expect.arrayContaining([
        { description: 'req_elec_acepted', value: 'true' },
        { description: 'request_report_acepted', value: 'true' },
      ]),
    );
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("the authorization intro's CANCELAR asks first: NO stays, SI records the cancellation and returns to the entry", async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    const uuidTrx = await startJourney(page);
    await recordConsents(page, server, ['clausula']);
    await page.goto(`${server.url}/autorizacion_solicitud`);
    await page.getByRole('button', { name: 'CANCELAR' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Cancelar proceso').first().isVisible()).toBe(true);
    await screenshot(page, `${viewport}-consents-05-cancelar`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'NO' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/autorizacion_solicitud');

    await page.getByRole('button', { name: 'CANCELAR' }).click();
    await dialog.getByRole('button', { name: 'SÍ' }).click();
    await page.waitForURL(`${server.url}/demo`, { timeout: 5_000 });
    await expect.poll(async () => (await transactionEvents(server, 'demo', uuidTrx)).lifecycle.some((e) => e.step === 'autorizacion_solicitud' && e.event.includes('INCOMPLETED'))).toBe(true);
    await context.close();
  });

  it("the one-hour lock shows 'Proceso no exitoso' with the folio on /finalizado and the document pages; ENTENDIDO goes to the grantor page", async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await startJourney(page);
    const uuidUser = (await page.evaluate(() => localStorage.getItem('uuidUser')))!;
    await page.evaluate(() => {
      localStorage.setItem('bloqueo', 'true');
      localStorage.setItem('time', String(Date.now() + 60 * 60 * 1000));
    });

    await page.goto(`${server.url}/validacion_documento`);
    await expect.poll(() => page.getByRole('heading', { name: 'Proceso no exitoso' }).isVisible()).toBe(true);
    expect(await page.getByText(errorTexts.attemptsExceeded).count()).toBe(1);
    expect(await page.getByRole('checkbox').count()).toBe(0);

    // The result's route follows the consents and the face decision (the journey's order): a lock after the face
    // video's last attempt.
    await recordConsents(page, server, ['clausula', 'autorizacion']);
    await seedFailedFaceVideo(page, server);
    await page.goto(`${server.url}/finalizado`);
    await expect.poll(() => page.getByRole('heading', { name: 'Proceso no exitoso' }).isVisible()).toBe(true);
    expect(await page.locator('main').innerText()).toContain(uuidUser.split('-')[0]);
    await screenshot(page, `${viewport}-consents-06-bloqueo`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await page.waitForURL(`${server.url}/demo`, { timeout: 5_000 });
    // At the grantor page the panel shows again while the lock is on, and stays (issue #21: ENTENDIDO → EMPEZAR
    // must not start again before the lock ends); once its time has passed ENTENDIDO clears it.
    await expect.poll(() => page.getByRole('heading', { name: 'Proceso no exitoso' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await page.waitForTimeout(300);
    expect(await page.getByRole('button', { name: 'EMPEZAR' }).count()).toBe(0);
    await page.evaluate(() => localStorage.setItem('time', String(Date.now() - 1)));
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Inicia tu pre-registro' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('bloqueo'))).toBeNull();

    // A lock whose hour has passed is cleared on arrival.
    await page.evaluate(() => {
      localStorage.setItem('bloqueo', 'true');
      localStorage.setItem('time', String(Date.now() - 1));
    });
    // The entry started a new transaction: its terms and ID come first again.
    await recordConsents(page, server, ['terminos']);
    await page.evaluate(() => localStorage.setItem('ocrFront', JSON.stringify({ nombreCompleto: 'MARIA FERNANDA NUÑEZ ZUÑIGA' })));
    await page.goto(`${server.url}/validacion_documento`);
    await expect.poll(() => page.getByRole('checkbox').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/validacion_documento');
    expect(await page.evaluate(() => localStorage.getItem('bloqueo'))).toBeNull();
    await context.close();
  });

  it('/pdf_token: fresh state, expiry in long es-MX form, single-consultation warning, CONTINUAR to the face video', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await startJourney(page);
    await page.evaluate(() => localStorage.setItem('ocrFront', '{"nombres":"OTRA PERSONA"}'));
    const uuid = '7d3c1a52-1111-4a4a-9b9b-000000000001';
    const uuidTrx = '5f2e9c10-2222-4b4b-8c8c-000000000002';
    const fecha = Date.now() + 3 * 24 * 60 * 60 * 1000;
    await page.goto(`${server.url}/pdf_token?uuid=${uuid}&idOtorgante=${demoGrantorId}&fecha=${fecha}&uuidTrx=${uuidTrx}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Consulta tu documento' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const text = await page.locator('main').innerText();
    expect(text).toContain(longDateTime(fecha));
    expect(text).toContain('solo se puede consultar una vez');
    const stored = await page.evaluate(() => ['uuidUser', 'uuidTrx', 'idOtorgante', 'fechavigencia', 'ocrFront'].map((k) => localStorage.getItem(k)));
    expect(stored).toEqual([uuid, uuidTrx, demoGrantorId, String(fecha), null]);
    // The grantor's branding comes from its public parameters.
    expect(await page.getByRole('img', { name: 'Demo' }).count()).toBeGreaterThan(0);
    await screenshot(page, `${viewport}-consents-07-pdf_token`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await page.waitForURL('**/pdf_video_token');
    await context.close();
  });

  it('/pdf_token with a past fecha goes to /pdf_token_error: lapsed on the long date, folio', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    const uuid = '9a8b7c6d-1111-4a4a-9b9b-000000000003';
    const fecha = Date.UTC(2026, 0, 5, 18, 45);
    await page.goto(`${server.url}/pdf_token?uuid=${uuid}&idOtorgante=${demoGrantorId}&fecha=${fecha}`);
    await page.waitForURL('**/pdf_token_error', { timeout: 10_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'Enlace vencido' }).isVisible()).toBe(true);
    const text = await page.locator('main').innerText();
    expect(text).toContain(`La vigencia de este enlace terminó el ${longDateTime(fecha)}`);
    expect(longDateTime(fecha)).toBe('lunes, 5 de enero de 2026, 12:45');
    expect(text).toContain('9a8b7c6d');
    // The help phone: TEL_AYUDA_ENLACE, else the grantor's main phone (its public parameters).
    await expect.poll(() => page.getByRole('link', { name: '55 1234 5678' }).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'Demo' }).count()).toBeGreaterThan(0);
    await screenshot(page, `${viewport}-consents-08-pdf_token_error`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it("a link that cannot be read shows 'Verifica tu URL'", async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await page.goto(`${server.url}/pdf_token?uuid=nope&fecha=x`);
    await expect.poll(() => page.getByText(errorTexts.badUrlTitle).first().isVisible(), { timeout: 5_000 }).toBe(true);
    await context.close();
  });

  it("/finalizado with the real score: a transaction whose face video did not match is RED — 'Proceso no exitoso', folio, contacts, the lock, the FAIL event", async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const uuidTrx = await startJourney(page);
    // The result comes after the consents and the face video (the journey's order): one that did not match.
    await recordConsents(page, server, ['clausula', 'autorizacion']);
    await seedFailedFaceVideo(page, server);
    const uuidUser = (await page.evaluate(() => localStorage.getItem('uuidUser')))!;
    const before = Date.now();
    await page.goto(`${server.url}/finalizado`);
    await expect.poll(() => page.getByRole('heading', { name: 'Proceso no exitoso' }).isVisible(), { timeout: 15_000 }).toBe(true);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Tu proceso no fue aceptado');
    expect(text).toContain(uuidUser.split('-')[0]);
    expect(text).toContain('contacto@demo.example');
    expect(await page.getByRole('textbox').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('completado'))).toBe('true');
    const [bloqueo, time, flag] = await page.evaluate(() => ['bloqueo', 'time', 'flag'].map((k) => localStorage.getItem(k)));
    expect(bloqueo).toBe('true');
    expect(flag).toBe('RED');
    expect(Number(time) - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(Number(time) - before).toBeLessThan(3_600_000 + 60_000);
    const { lifecycle } = await transactionEvents(server, 'demo', uuidTrx);
    const finished = lifecycle.find((e) => e.step === 'finished');
    expect(finished && JSON.parse(finished.event)).toMatchObject({ status: 'FAIL', step: 'finished' });
    await screenshot(page, `${viewport}-consents-09-finalizado-rojo`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // "documents fetched": the links of the generated PDFs are stored.
    const links = JSON.parse((await page.evaluate(() => localStorage.getItem('links'))) ?? '{}') as Record<string, string>;
    expect(links.autorizacion).toMatch(/\/v1\/enlace\//);

    await page.getByRole('button', { name: 'TERMINAR' }).click();
    await page.waitForURL(`${server.url}/demo`, { timeout: 5_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'Proceso no exitoso' }).isVisible()).toBe(true);

    // /pdf_token_result with a link whose face re-verification has not happened: the service refuses the
    // download (403) and the flow goes back to the link's face video (docs/flow.md §8 "Document download failure").
    // (Stored once the page is up: the entry route's new journey clears the previous journey's keys.)
    await page.goto(`${server.url}/pdf_token_result`);
    await expect.poll(() => page.getByRole('heading', { name: 'Tu documento está listo' }).isVisible()).toBe(true);
    await page.evaluate((link) => localStorage.setItem('enlace', link), links.autorizacion!);
    await screenshot(page, `${viewport}-consents-10-pdf_token_result`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    const answer = page.waitForResponse((response) => response.url().includes('/v1/enlace/'));
    await page.getByRole('button', { name: 'DESCARGAR DOCUMENTO' }).click();
    expect((await answer).status()).toBe(403);
    await page.waitForURL('**/pdf_video_token', { timeout: 5_000 });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
