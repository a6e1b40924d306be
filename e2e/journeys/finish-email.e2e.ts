import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../../apps/server/src/crypto/data-cipher.js';
import { listOutbox } from '../../apps/server/src/mail/mailer.js';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { openEntry } from '../support/camera.js';
import { recordConsents, seedIdFront, seedMatchingFaceVideo } from '../support/journey-order.js';
import { stopAll } from '../support/rig.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 60_000);

afterAll(() => stopAll({ browser, server }));

/** The decrypted messages of the server's outbox (SMTP_URL unset) sent to `to`. */
async function mailsTo(to: string): Promise<string[]> {
  const cipher = createDataCipher(loadDataKey({ dataDir: server.dataDir, dataEncryptionKey: undefined }).key);
  return (await listOutbox(server.dataDir, cipher)).map((m) => m.eml).filter((eml) => eml.includes(to));
}

/**
 * Issue #21 item 7: after TERMINAR the person reads that the e-mail was sent, and where, before ENTENDIDO returns to
 * the start; the e-mail's HTML part links the result page with an anchor and its plain-text part writes the address.
 */
async function finish(viewport: ViewportName): Promise<void> {
  const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
  await openEntry(page, `${server.url}/demo`);
  // A result that is not RED: consents, a passport read (no back to read) and a matching face video recorded.
  await recordConsents(page, server, ['terminos', 'clausula', 'autorizacion']);
  await seedIdFront(page, server, { nombreCompleto: 'MARÍA FERNANDA NÚÑEZ ZÚÑIGA', vigencia: '31/12/2031' }, 'PASAPORTE');
  await seedMatchingFaceVideo(page, server);
  await page.goto(`${server.url}/finalizado`);
  await page.getByRole('heading', { name: 'Muchas Gracias' }).waitFor({ timeout: 20_000 });

  const email = `fin.${viewport}@example.com`;
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('button', { name: 'TERMINAR' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirma tu correo electrónico' });
  await dialog.getByRole('button', { name: 'TERMINAR' }).click();

  await page.getByRole('heading', { name: 'Resultado enviado' }).waitFor({ timeout: 20_000 });
  expect(await page.getByRole('status').filter({ hasText: email }).innerText()).toBe(
    `Enviamos el resultado de tu proceso a ${email}. Revisa tu bandeja de entrada y, si no lo encuentras, la carpeta de correo no deseado.`,
  );
  // The flow does not leave by itself: the person reads the confirmation first.
  await page.waitForTimeout(1_000);
  expect(new URL(page.url()).pathname).toBe('/finalizado');
  await screenshot(page, `${viewport}-39-resultado-enviado`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'ENTENDIDO' }).click();
  await page.getByRole('button', { name: 'EMPEZAR' }).waitFor({ timeout: 10_000 });

  let eml = '';
  await expect
    .poll(
      async () => {
        eml = (await mailsTo(email))[0] ?? '';
        return eml !== '';
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  const mail = await simpleParser(eml);
  const html = typeof mail.html === 'string' ? mail.html : '';
  const anchor = /<a href="([^"]+)">Consultar mi documento<\/a>/.exec(html);
  expect(anchor, html).not.toBeNull();
  const link = anchor![1]!.replaceAll('&amp;', '&');
  expect(new URL(link).pathname).toBe('/pdf_token');
  // The long address is the anchor's target, never the HTML's visible text; the plain-text part writes it whole.
  expect(html.replace(/<a [^>]*>/g, '')).not.toContain('/pdf_token');
  expect(mail.text ?? '').toContain(link);
  expect(mail.text ?? '').not.toContain('<a ');
  expect(pageErrors).toEqual([]);
  await context.close();
}

describe('finish: the e-mail was sent, and it links the result', () => {
  it('phone', async () => {
    await finish('phone');
  }, 90_000);

  it('desktop', async () => {
    await finish('desktop');
  }, 90_000);
});
