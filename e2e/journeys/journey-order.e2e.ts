import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, screenshot, type ViewportName } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * Issue #21 items 1, 4 and 5 as a customer (or someone typing routes) meets them: the journey's order, a lock that
 * holds after the attempts ran out, and a result link that was already consulted.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => path.join(root, 'apps/server/dist', file);
const attemptsExceeded = 'Has superado el número máximo de intentos para este proceso inténtalo nuevamente más tarde.';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function entry(page: Page, query = ''): Promise<void> {
  await page.goto(`${server.url}/demo${query}`);
}

async function whenReady(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole('button', { name: 'EMPEZAR' }).isEnabled(), { timeout: 15_000 }).toBe(true);
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function evidenceKinds(uuidTrx: string): Promise<string[]> {
  const res = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { authorization: 'Bearer demo-secret' } });
  if (res.status === 404) return [];
  return (((await res.json()) as { payload: { evidence?: { kind: string }[] } }).payload.evidence ?? []).map((e) => e.kind);
}

describe.each<ViewportName>(['phone', 'desktop'])('the journey order, the lock and the used link on a %s', (viewport) => {
  it('a capture route typed before the terms goes to /terminos, and the server refuses the capture', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await entry(page);
    await whenReady(page);
    const uuidTrx = await page.evaluate(() => localStorage.getItem('uuidTrx') ?? '');
    for (const route of ['/preparacion_identificacion', '/identificacion', '/clausula', '/video_token', '/finalizado']) {
      await page.goto(`${server.url}${route}`);
      await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe('/terminos');
    }
    await page.getByRole('checkbox').waitFor();
    await screenshot(page, `${viewport}-order-01-typed-route-to-terminos`);
    // The capture itself, sent without the consent: 409 with the due step's text, nothing stored.
    const s = await page.evaluate(() => ({ uuidUser: localStorage.getItem('uuidUser') ?? '', apikey: localStorage.getItem('apikeyOtorgante') ?? '' }));
    const form = new FormData();
    form.append('uuidUser', s.uuidUser);
    form.append('side', 'front');
    form.append('ine', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' }), 'frente.png');
    const refused = await fetch(`${server.url}/v2/ocr`, { method: 'POST', headers: { apikey: s.apikey, transaccion: uuidTrx, cliente: s.uuidUser }, body: form });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message_client: string }).message_client).toMatch(/primero debes aceptar/);
    expect(await evidenceKinds(uuidTrx)).toEqual([]);
    await context.close();
  }, 90_000);

  it('after Cancelar proceso → SÍ, Back and typed routes cannot resume the cancelled transaction', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await entry(page);
    await whenReady(page);
    const cancelled = await page.evaluate(() => localStorage.getItem('uuidTrx') ?? '');
    const ids = await page.evaluate(() => ({ uuidUser: localStorage.getItem('uuidUser') ?? '', apikey: localStorage.getItem('apikeyOtorgante') ?? '' }));
    await page.getByRole('button', { name: 'EMPEZAR' }).click();
    await page.waitForURL('**/terminos');
    await page.getByRole('checkbox').check();
    await page.waitForURL('**/preparacion_identificacion', { timeout: 10_000 });
    await page.getByRole('button', { name: 'CANCELAR' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^S[IÍ]$/ })
      .click();
    await page.waitForURL('**/demo', { timeout: 10_000 });
    await whenReady(page);

    await page.goBack();
    await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe('/terminos');
    await screenshot(page, `${viewport}-order-02-back-after-cancel`);
    for (const route of ['/preparacion_identificacion', '/clausula']) {
      await page.goto(`${server.url}${route}`);
      await expect.poll(() => pathOf(page), { timeout: 10_000 }).not.toBe(route);
    }
    // The server closed the cancelled transaction: a replayed capture on it is refused and stores nothing.
    const form = new FormData();
    form.append('uuidUser', ids.uuidUser);
    form.append('side', 'front');
    form.append('ine', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' }), 'frente.png');
    const replayed = await fetch(`${server.url}/v2/ocr`, { method: 'POST', headers: { apikey: ids.apikey, transaccion: cancelled, cliente: ids.uuidUser }, body: form });
    expect(replayed.status).toBe(409);
    expect(((await replayed.json()) as { message_client: string }).message_client).toBe('Cancelaste este proceso. Para continuar inicia uno nuevo.');
    expect(await evidenceKinds(cancelled)).not.toContain('ocr_frente');
    // Whatever comes next is a new transaction that asks for consent again.
    expect(await page.evaluate(() => localStorage.getItem('uuidTrx'))).not.toBe(cancelled);
    expect(await page.evaluate(() => localStorage.getItem('data_user') ?? '')).not.toContain('terms_acepted');
    await context.close();
  }, 90_000);

  it('a client whose attempts ran out sees the lockout and its time, also after clearing storage; ENTENDIDO does not start again', async () => {
    const cliente = randomUUID();
    const headers = { apikey: 'demo', transaccion: randomUUID(), cliente, 'content-type': 'application/json' };
    const failed = await fetch(`${server.url}/v1/update_cycle`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        trx_id: headers.transaccion,
        company_id: '',
        client_id: cliente,
        step: 'identificacion',
        origin: 'celd',
        event: JSON.stringify({ status: 'FAIL', step: 'identificacion', description: 'Finalizado por reintentos' }),
      }),
    });
    expect(failed.status, await failed.text()).toBe(200);

    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await entry(page, `?cliente=${cliente}`);
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('main').innerText()).toContain(attemptsExceeded);
    expect(await page.getByTestId('lockout-until').innerText()).toMatch(/^Podrás intentarlo nuevamente a partir de las \d{2}:\d{2} h\.$/);
    await screenshot(page, `${viewport}-order-03-lockout`);
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await page.waitForTimeout(500);
    expect(await page.getByRole('button', { name: 'EMPEZAR' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor();

    // Storage cleared, the grantor sends the same cliente: still locked (the server keeps the lock).
    await page.evaluate(() => localStorage.clear());
    await entry(page, `?cliente=${cliente}`);
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'EMPEZAR' }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('the same browser after its attempts ran out: ENTENDIDO at the entry keeps the lockout until its time', async () => {
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await entry(page);
    await whenReady(page);
    // What the flow stores when a capture's attempts run out (journey.ts processFailed → lock).
    await page.evaluate((until) => {
      localStorage.setItem('bloqueo', 'true');
      localStorage.setItem('time', String(until));
    }, Date.now() + 3_600_000);
    await entry(page);
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'ENTENDIDO' }).click();
    await page.waitForTimeout(500);
    expect(await page.getByRole('button', { name: 'EMPEZAR' }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('a result link already consulted shows its own screen at once, before any camera step', async () => {
    const uuidTrx = randomUUID();
    const uuidUser = randomUUID();
    const url = await usedLink({ uuidTrx, uuidUser });
    const context = await newPhoneOrDesktop(browser, viewport);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Documento ya consultado' }).waitFor({ timeout: 15_000 });
    expect(pathOf(page)).toBe('/pdf_token_error');
    expect(await page.getByRole('button', { name: 'CONTINUAR' }).count()).toBe(0);
    expect(await page.locator('main').innerText()).toContain('ya fue consultado');
    await screenshot(page, `${viewport}-order-04-link-consultado`);
    await context.close();
  }, 60_000);
});

/** A result link of a transaction of the demo grantor, issued and consumed in the server's own database. */
async function usedLink(subject: { uuidTrx: string; uuidUser: string }): Promise<string> {
  const headers = { apikey: 'demo', transaccion: subject.uuidTrx, cliente: subject.uuidUser };
  expect((await fetch(`${server.url}/v1/params`, { headers })).status).toBe(200);
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const { loadLinkKey } = (await import(dist('crypto/link-key.js'))) as typeof import('../../apps/server/src/crypto/link-key.js');
  const { issueResultLink, consumeLink } = (await import(dist('features/results/links.js'))) as typeof import('../../apps/server/src/features/results/links.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  const db = createDatabase(config.database);
  try {
    const grantor = await db.selectFrom('grantors').select('id').executeTakeFirstOrThrow();
    const link = await issueResultLink(
      { db, linkKey: loadLinkKey(config).key, baseUrl: server.url },
      { ...subject, grantorId: grantor.id, document: 'autorizacion', expiresAt: new Date(Date.now() + 3_600_000) },
    );
    await db.updateTable('result_links').set({ state: 'verified' }).where('id', '=', link.linkId).execute();
    expect(await consumeLink(db, link.linkId)).toBe(true);
    return link.pdfTokenUrl;
  } finally {
    await db.destroy();
  }
}
