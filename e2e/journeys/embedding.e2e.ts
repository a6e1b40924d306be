import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { errorTexts, launcherTexts } from '@kyc/contracts/texts';
import { newPhoneOrDesktop, newWatchedPage, screenshot, seriousA11yViolations, viewports, type ViewportName } from '../support/browser.js';
import { cameraFrame } from '../support/camera.js';
import { FakeMedia, generateHolder, readingVideo, type FaceMedia, type Holder } from '../support/face-video.js';
import { acceptConsents, captureId, confirmData, faceVideoOutcome, fillAddress, recordFaceVideo, session, startAndAcceptTerms } from '../support/journey-steps.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli, transactionEvents } from '../support/transactions.js';

/*
 * The launcher on a partner page of another origin: the flow is served from http://127.0.0.1:<port>, the partner
 * page from http://localhost:<port2> (another origin), and a "foreign" page from http://127.0.0.1:<port2>.
 * The completed journey runs the whole flow inside the popup with the fake camera (the generated INE, then the
 * holder's face video) and microphone (the holder reading the code), as whole-journey.e2e.ts does in a tab.
 */
const demoGrantorId = '00000000-0000-4000-8000-000000000001';
let server: RunningServer;
let browser: Browser;
let partner: Server;
let partnerPort: number;
let work: string;
let holder: Holder;
let media: FakeMedia;
let frontY4m: string;
let backY4m: string;
let person: FaceMedia;

const partnerPage = (flow: string) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tienda aliada</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;max-width:40rem}</style></head>
<body><main><h1>Tienda aliada</h1><p>Verifica tu identidad para solicitar tu crédito.</p><div id="kyc"></div></main>
<script src="${flow}/launcher/v1/launcher.js"></script>
<script>
  window.received = [];
  window.typed = [];
  window.launcher = KycLauncher.create({
    key: 'demo', container: '#kyc', text: 'Verificar mi identidad', mode: 'prod', debug: true,
    status: (m) => received.push({ kind: 'status', m }),
    errors: (m) => received.push({ kind: 'errors', m }),
    finish: (m) => received.push({ kind: 'finish', m }),
    onComplete: (r) => typed.push({ kind: 'onComplete', r }),
    onError: (r) => typed.push({ kind: 'onError', r }),
    onUserExit: (r) => typed.push({ kind: 'onUserExit', r }),
  });
</script></body></html>`;

/** A page of a third origin that posts a forged "completed" to whatever window embeds it. */
const foreignPage = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Otro sitio</title></head><body>
<script>parent.postMessage({ step: 'completed', result: 'OK', uuid: 'falso' }, '*');</script></body></html>`;

interface Received {
  kind: 'status' | 'errors' | 'finish';
  m: { step: string; result: string; uuid?: string; data?: unknown; type?: string; error_text?: string; status?: number | null };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-embedding-'));
  holder = await generateHolder(work);
  frontY4m = path.join(work, 'front.y4m');
  backY4m = path.join(work, 'back.y4m');
  [person] = await Promise.all([readingVideo(work, holder.faceId, 'person'), cameraFrame(holder.frontPng, frontY4m), cameraFrame(holder.backPng, backY4m)]);
  server = await startServer();
  // The demo grantor with the credit-history consent on, set the way an operator would (before any flow request).
  await grantorCli(server, ['set', demoGrantorId, 'ENABLE_CONSULTA_HISTORIAL=true']);
  // One browser for every test: its fake camera starts on the ID front, its microphone on the holder's reading.
  media = new FakeMedia(work);
  await media.show(frontY4m);
  await media.hear(person.wav);
  browser = await media.launch();
  partner = createServer((request, response) => {
    const body = request.url?.startsWith('/foreign') ? foreignPage : partnerPage(server.url);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  // No host: dual-stack, so http://localhost reaches it whichever address Chromium tries first.
  await new Promise<void>((resolve) => partner.listen(0, resolve));
  partnerPort = (partner.address() as AddressInfo).port;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const partnerUrl = () => `http://localhost:${partnerPort}/tienda`;

async function received(page: Page): Promise<Received[]> {
  return page.evaluate(() => (window as unknown as { received: Received[] }).received);
}

/** What the typed callbacks (onComplete, onError, onUserExit) received, in order. */
async function typedCallbacks(page: Page): Promise<{ kind: string; r: Record<string, unknown> }[]> {
  return page.evaluate(() => (window as unknown as { typed: { kind: string; r: Record<string, unknown> }[] }).typed);
}

/** Clicks the launcher (inside its shadow root) and returns the flow's popup once its entry screen is ready. */
async function launch(page: Page, viewport: ViewportName = 'phone'): Promise<Page> {
  const popupOpened = page.waitForEvent('popup');
  await page.locator('[data-kyc-launcher] button').click();
  const popup = await popupOpened;
  // The launcher asks for a 480x820 window; screenshots are taken at the test's phone or desktop size.
  await popup.setViewportSize(viewports[viewport]);
  await popup.waitForURL(/\/demo\?referer=/, { timeout: 10_000 });
  const start = popup.getByRole('button', { name: 'EMPEZAR' });
  await expect.poll(() => start.isEnabled(), { timeout: 10_000 }).toBe(true);
  return popup;
}

/** A forged "completed" from a third origin (an iframe on the partner page), and one from the partner page itself. */
async function forgeCompleted(page: Page): Promise<void> {
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
  }, `http://127.0.0.1:${partnerPort}/foreign`);
  await page.evaluate(() => window.postMessage({ step: 'completed', result: 'OK' }, '*'));
}

/** Screenshot and accessibility check of a popup screen at the phone size, then at the desktop size. */
async function bothSizes(popup: Page, name: string): Promise<void> {
  for (const viewport of ['phone', 'desktop'] as const) {
    await popup.setViewportSize(viewports[viewport]);
    await screenshot(popup, `${viewport}-${name}`);
    expect(await seriousA11yViolations(popup)).toEqual([]);
  }
  await popup.setViewportSize(viewports.phone);
}

/** The codes the SMS outbox holds for `to`, sent since `since` (an ISO time: a retried test sees its own only). */
async function outboxCodes(to: string, since: string): Promise<string[]> {
  const dir = path.join(server.dataDir, 'sms-outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  const entries = await Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as { to: string; text: string; createdAt: string }));
  return entries.filter((e) => e.to === to && e.createdAt >= since).map((e) => /\b(\d{6})\b/.exec(e.text)?.[1] ?? '');
}

/** The server refuses a resend within 30 s: move this transaction's codes 30 s back, as if the time had passed. */
function ageCodes(uuidTrx: string): void {
  const db = new Database(path.join(server.dataDir, 'onboarding.sqlite'));
  try {
    const rows = db.prepare('select id, created_at from sms_codes where uuid_trx = ?').all(uuidTrx) as { id: string; created_at: string }[];
    for (const row of rows) {
      db.prepare('update sms_codes set created_at = ? where id = ?').run(new Date(Date.parse(row.created_at) - 31_000).toISOString(), row.id);
    }
  } finally {
    db.close();
  }
}

describe('the launcher on a partner page (another origin)', () => {
  it('a cancelled journey: status for each step, errors for the cancellation, the popup closes; foreign messages ignored', async () => {
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(partnerUrl());
    await page.locator('[data-kyc-launcher] button').waitFor();
    await screenshot(page, 'phone-embedding-01-partner');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const popup = await launch(page);
    const url = new URL(popup.url());
    expect(url.origin).toBe(server.url);
    expect(url.searchParams.get('referer')).toBe(partnerUrl());
    expect(url.searchParams.get('jwt')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const uuidUser = await popup.evaluate(() => localStorage.getItem('uuidUser'));
    await screenshot(popup, 'phone-embedding-02-popup-entry');

    // A forged "completed" from a third origin, and one from the partner page itself: both ignored.
    await forgeCompleted(page);

    await startAndAcceptTerms(popup);
    await popup.getByRole('button', { name: 'CANCELAR' }).click();
    await popup.getByRole('dialog').getByRole('button', { name: 'SÍ' }).click();
    await popup.waitForEvent('close', { timeout: 5_000 });

    await expect.poll(async () => (await received(page)).some((r) => r.kind === 'errors'), { timeout: 5_000 }).toBe(true);
    const got = await received(page);
    expect(got.filter((r) => r.kind === 'status').map((r) => r.m.step)).toEqual(['inicio_page', 'inicio', 'terminos']);
    for (const r of got) expect(r.m.uuid).toBe(uuidUser);
    expect(got.filter((r) => r.kind === 'errors').map((r) => r.m)).toEqual([
      expect.objectContaining({ step: 'preparacion_identificacion', result: 'INCOMPLETED', type: 'PROCESS', error_text: 'Cancelado' }),
    ]);
    expect(
      got.some((r) => r.kind === 'finish'),
      'the forged completed messages were ignored',
    ).toBe(false);
    // The typed callbacks: a cancellation is the person leaving, not an error; no second exit when the popup closes.
    await page.waitForTimeout(1_500);
    expect(await typedCallbacks(page)).toEqual([{ kind: 'onUserExit', r: expect.objectContaining({ reason: 'cancelled', step: 'preparacion_identificacion' }) }]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a popup the person closes is reported once to onUserExit, with the last step the flow reported', async () => {
    const context = await newPhoneOrDesktop(browser, 'phone');
    onTestFinished(() => context.close());
    const page = await context.newPage();
    await page.goto(partnerUrl());
    const popup = await launch(page);
    await expect.poll(async () => (await received(page)).some((r) => r.kind === 'status'), { timeout: 5_000 }).toBe(true);
    await popup.close();
    await expect.poll(async () => (await typedCallbacks(page)).length, { timeout: 5_000 }).toBe(1);
    const [exit] = await typedCallbacks(page);
    expect(exit).toEqual({ kind: 'onUserExit', r: { reason: 'closed', step: (await received(page)).at(-1)!.m.step } });
  });

  // One retry, as for the other face videos: under CPU contention the recording may drop frames while the code is
  // read, and the decision then (rightly) asks to read it again.
  it('a completed journey in the popup: entry → terms → ID → data → address → consents → face video → credit-history consent → number → wrong code → resend → verified; status for each step, finish completed, the popup closes', {
    retry: 1,
    timeout: 180_000,
  }, async () => {
    const since = new Date().toISOString();
    const number = '5512345678';
    const shown = `+52 ${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`;
    await media.show(frontY4m);
    const { context, page, pageErrors } = await newWatchedPage(browser, 'phone');
    onTestFinished(() => context.close());
    await page.goto(partnerUrl());
    const popup = await launch(page);
    const popupErrors: string[] = [];
    popup.on('pageerror', (error) => popupErrors.push(error.message));
    // Forged messages while the popup runs: only the flow's own reach the callbacks.
    await forgeCompleted(page);

    await startAndAcceptTerms(popup);
    const s = await session(popup);
    await captureId(popup, () => media.show(backY4m));
    await confirmData(popup, holder.front.ocrFront?.nombreCompleto);
    await fillAddress(popup);
    await acceptConsents(popup);
    await media.show(person.y4m);
    await recordFaceVideo(popup, 'phone-embedding-02b-video');

    // ENABLE_CONSULTA_HISTORIAL: after the face match the credit-history consent, then the mobile number.
    expect(await faceVideoOutcome(popup, 'consulta_historial', 90_000)).toBe('consulta_historial');
    await popup.getByRole('heading', { name: 'Autorización para consultar tu historial crediticio' }).waitFor();
    expect(await popup.locator('main').innerText()).toContain('Financiera Demo S.A. de C.V.');
    await bothSizes(popup, 'embedding-03-consulta-historial');
    await popup.getByRole('checkbox').check();
    await popup.waitForURL('**/validar_movil', { timeout: 5_000 });
    // From here the popup's clock can be moved on to the resend ('Reenviar código' appears after 30 s).
    await popup.clock.install();

    const continuar = popup.getByRole('button', { name: 'CONTINUAR' });
    expect(await continuar.isDisabled()).toBe(true);
    await popup.getByLabel('Número de celular').fill(shown.slice(4));
    expect(await popup.getByLabel('Número de celular').inputValue()).toBe(number);
    await bothSizes(popup, 'embedding-04-validar-movil');
    await continuar.click();
    await popup.waitForURL('**/validar_sms', { timeout: 5_000 });
    await popup.getByText(shown).waitFor();
    const [first] = await outboxCodes(`+52${number}`, since);
    expect(first).toMatch(/^\d{6}$/);

    const validate = popup.getByRole('button', { name: 'VALIDAR CÓDIGO' });
    expect(await validate.isDisabled()).toBe(true);
    expect(await popup.getByRole('button', { name: 'Reenviar código' }).count()).toBe(0);
    await popup.getByLabel('Código de verificación').fill(first === '000000' ? '111111' : '000000');
    await validate.click();
    await popup.getByText(errorTexts.smsFailed).waitFor({ timeout: 5_000 });
    await bothSizes(popup, 'embedding-05-validar-sms-error');

    // 'Reenviar código' appears after 30 s (the page's clock), and the server allows it after 30 s (its rows aged).
    await popup.clock.fastForward(31_000);
    ageCodes(s.uuidTrx);
    await popup.getByRole('button', { name: 'Reenviar código' }).click();
    await popup.getByText('Te enviamos un nuevo código.').waitFor({ timeout: 5_000 });
    const codes = await outboxCodes(`+52${number}`, since);
    expect(codes).toHaveLength(2);

    await popup.getByLabel('Código de verificación').fill(codes[1]!);
    const closed = popup.waitForEvent('close', { timeout: 5_000 });
    await validate.click();
    await closed;

    // What the partner page's callbacks received: an OK per step, then finish with the completed message.
    await expect.poll(async () => (await received(page)).some((r) => r.kind === 'finish'), { timeout: 5_000 }).toBe(true);
    const got = await received(page);
    expect(got.filter((r) => r.kind === 'status').map((r) => r.m)).toEqual(
      [
        'inicio_page',
        'inicio',
        'terminos',
        'identificacion',
        'resultados_identificacion',
        'datos_direccion_ocr_page',
        'clausula',
        'autorizacion',
        'video_token',
        'consulta_historial',
        'validar_movil',
      ].map((step) => ({ step, result: 'OK', uuid: s.uuidUser })),
    );
    expect(got.filter((r) => r.kind === 'errors')).toEqual([]);
    // Spec §4 "SMS success" in a popup: completed with result FAIL, the number and the process text.
    expect(got.filter((r) => r.kind === 'finish').map((r) => r.m)).toEqual([
      {
        step: 'completed',
        result: 'FAIL',
        data: { number_phone: number },
        type: 'PROCESS',
        error_text: 'El proceso no se concluyó correctamente',
        uuid: s.uuidUser,
        transaccion: s.uuidTrx,
      },
    ]);
    expect(await typedCallbacks(page)).toEqual([{ kind: 'onComplete', r: expect.objectContaining({ result: 'FAIL', userId: s.uuidUser, transactionId: s.uuidTrx }) }]);

    const events = await transactionEvents(server, 'demo', s.uuidTrx);
    expect(events.audit).toEqual(expect.arrayContaining([expect.objectContaining({ paso: 'consulta_historial', tipo: 'Aceptación' })]));
    expect((events.evidence ?? []).map((e) => e.kind)).toEqual(expect.arrayContaining(['ocr_frente', 'ocr_reverso', 'video_token', 'telefono_verificado']));
    expect(pageErrors).toEqual([]);
    expect(popupErrors).toEqual([]);
  });

  it('the three button variants', async () => {
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    await page.goto(partnerUrl());
    await page.evaluate(() => {
      const create = (window as unknown as { KycLauncher: { create(o: object): unknown } }).KycLauncher.create;
      for (const variant of ['only_text', 'only_logo']) {
        const box = document.createElement('div');
        box.id = variant;
        document.querySelector('main')!.append(box);
        create({ key: 'demo', container: box, variant, text: 'Verificar con mi INE' });
      }
    });
    const original = page.locator('#kyc [data-kyc-launcher] button');
    const onlyText = page.locator('#only_text [data-kyc-launcher] button');
    const onlyLogo = page.locator('#only_logo [data-kyc-launcher] button');
    expect(await original.locator('svg').count()).toBe(1);
    expect((await original.innerText()).trim()).toBe('Verificar mi identidad');
    expect(await onlyText.locator('svg').count()).toBe(0);
    expect((await onlyText.innerText()).trim()).toBe('Verificar con mi INE');
    expect(await onlyLogo.locator('svg').count()).toBe(1);
    expect((await onlyLogo.innerText()).trim()).toBe('');
    expect(await page.getByRole('button', { name: 'Verificar con mi INE' }).count()).toBe(2);
    await screenshot(page, 'phone-embedding-00-variants');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it('a blocked popup: the alert and the errors callback, with the Spanish text', async () => {
    // Headless Chromium does not block pop-ups, even without a user gesture: the page gets what a blocking browser
    // gives, window.open returning null.
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto(partnerUrl());
    const alerted = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.message()))));
    await page.locator('[data-kyc-launcher] button').click();
    expect(await alerted).toBe(launcherTexts.popupBlocked);
    await expect.poll(async () => (await received(page)).map((r) => r.m.error_text)).toEqual([launcherTexts.popupBlocked]);
    expect(await page.locator('[data-kyc-launcher] [role=alert]').innerText()).toBe(launcherTexts.popupBlocked);
    await context.close();
  });

  it('a forged or missing token shows the bad-URL panel and posts nothing', async () => {
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJh';
    await page.goto(`${server.url}/demo?referer=${encodeURIComponent(partnerUrl())}&jwt=${forged}`);
    await page.getByText(errorTexts.badUrlTitle).first().waitFor({ timeout: 5_000 });
    expect(await page.evaluate(() => localStorage.getItem('externalReference'))).toBeNull();
    await page.goto(`${server.url}/demo?referer=${encodeURIComponent(partnerUrl())}`);
    await page.getByText(errorTexts.badUrlTitle).first().waitFor({ timeout: 5_000 });
    await context.close();
  });
});

describe('the integrators demo page /pivote', () => {
  it('shows the live table of messages and the launcher errors', async () => {
    const context = await newPhoneOrDesktop(browser, 'desktop');
    const page = await context.newPage();
    await page.goto(`${server.url}/pivote`);
    await page.getByRole('heading', { name: 'Demo para integradores' }).waitFor();
    const popup = await launch(page, 'desktop');
    await startAndAcceptTerms(popup);
    const table = page.locator('table');
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 5_000 }).toBe(3);
    expect(await table.innerText()).toContain('inicio_page');
    await popup.close();
    await screenshot(page, 'desktop-embedding-06-pivote');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${server.url}/pivote?apikey=llave-invalida`);
    await page.locator('[data-kyc-launcher] button').click();
    await page.locator('.pivote__errors').getByText(launcherTexts.invalidKeys).waitFor({ timeout: 5_000 });
    await screenshot(page, 'desktop-embedding-07-pivote-error');

    const phone = await newPhoneOrDesktop(browser, 'phone');
    const small = await phone.newPage();
    await small.goto(`${server.url}/pivote`);
    await small.getByRole('heading', { name: 'Demo para integradores' }).waitFor();
    await screenshot(small, 'phone-embedding-06-pivote');
    expect(await seriousA11yViolations(small)).toEqual([]);
    await phone.close();
    await context.close();
  });
});
