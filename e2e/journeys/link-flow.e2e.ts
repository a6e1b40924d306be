import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHolder, readingVideo, type FaceMedia } from '../support/face-video.js';
import { launchBrowser, newPhoneOrDesktop, screenshot, seriousA11yViolations } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The result-link flow end to end: a link issued for a transaction whose ID front was read by the real /v2/ocr and
 * whose documents were rendered, opened in Chromium (/pdf_token), the face video with the fake camera showing the
 * ID holder (/pdf_video_token, public_otp and public_video_token with the link credential), then
 * /pdf_token_result downloading the PDF once; and a stranger's third failed video, whose 'Lo sentimos' restarts the
 * link from /pdf_token (docs/flow.md §9 "3 for the error modal and 5 for the final screen").
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => path.join(root, 'apps/server/dist', file);

let server: RunningServer;
let browser: Browser | undefined;
let work: string;
let holder: FaceMedia;
let stranger: FaceMedia;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-link-'));
  const person = await generateHolder(work);
  [holder, stranger] = await Promise.all([readingVideo(work, person.faceId, 'holder'), readingVideo(work, person.strangerFaceId, 'stranger')]);
  server = await startServer();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Consents recorded through the public API, as the flow records them. */
async function recordSteps(headers: Record<string, string>, consents: string[]): Promise<void> {
  const dato = JSON.stringify({ version: 'e2e', sha256: 'a'.repeat(64), userAgent: 'e2e' });
  for (const paso of consents) {
    const response = await fetch(`${server.url}/v1/celd_events`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso, tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() }),
    });
    expect(response.status).toBe(200);
  }
}

/** A transaction of the demo grantor with the ID front read and the documents rendered, through the public API. */
async function transactionWithDocuments(): Promise<{ uuidTrx: string; uuidUser: string }> {
  const headers = { transaccion: crypto.randomUUID(), cliente: crypto.randomUUID(), apikey: 'demo' };
  const started = await fetch(`${server.url}/v1/params`, { headers });
  expect(started.status).toBe(200);
  const token = started.headers.get('x-transaction-token') ?? '';
  await recordSteps(headers, ['terminos']);
  const form = new FormData();
  form.append('uuidUser', headers.cliente);
  form.append('side', 'front');
  form.append('ine', new Blob([await readFile(path.join(work, 'ine-000-front-clean.png'))], { type: 'image/png' }), 'frente.png');
  expect((await fetch(`${server.url}/v2/ocr`, { method: 'POST', headers, body: form })).status).toBe(200);
  // The main flow's face video came before its documents: decided in the server's own database.
  await withServerDb(async (db, config) => {
    const { addEvidence } = (await import(dist('store/evidence.js'))) as typeof import('../../apps/server/src/store/evidence.js');
    const { createDataCipher, loadDataKey } = (await import(dist('crypto/data-cipher.js'))) as typeof import('../../apps/server/src/crypto/data-cipher.js');
    await addEvidence(
      db,
      createDataCipher(loadDataKey(config).key),
      {
        uuidTrx: headers.transaccion,
        grantorId: '00000000-0000-4000-8000-000000000001',
        kind: 'video_token',
        payload: { match: true, faceScore: 0.9, threshold: 0.5, liveness: { passed: true, spoof: false, signals: {} }, spokenCode: { verified: null, engine: 'none', detail: 'e2e' } },
      },
      new Date(Date.now() - 2 * 3_600_000),
    );
  });
  const docs = await fetch(`${server.url}/v1/proccessdocuments`, {
    method: 'POST',
    headers: { ...headers, 'x-transaction-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ uuidUser: headers.cliente }),
  });
  expect(docs.status).toBe(200);
  return { uuidTrx: headers.transaccion, uuidUser: headers.cliente };
}

type ServerConfig = ReturnType<typeof import('../../apps/server/src/config.js').loadConfig>;
type ServerDb = ReturnType<typeof import('../../apps/server/src/store/db.js').createDatabase>;

/** Runs `use` on the server's own database (its config, its keys). */
async function withServerDb<T>(use: (db: ServerDb, config: ServerConfig) => Promise<T>): Promise<T> {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' });
  const db = createDatabase(config.database);
  try {
    return await use(db, config);
  } finally {
    await db.destroy();
  }
}

/** The link the result e-mail would carry, issued in the server's own database with its link key. */
async function issueLink(subject: { uuidTrx: string; uuidUser: string }): Promise<string> {
  const { loadLinkKey } = (await import(dist('crypto/link-key.js'))) as typeof import('../../apps/server/src/crypto/link-key.js');
  const { issueResultLink } = (await import(dist('features/results/links.js'))) as typeof import('../../apps/server/src/features/results/links.js');
  return withServerDb(async (db, config) => {
    const grantor = await db.selectFrom('grantors').select('id').executeTakeFirstOrThrow();
    const ctx = { db, linkKey: loadLinkKey(config).key, baseUrl: server.url };
    const link = await issueResultLink(ctx, { ...subject, grantorId: grantor.id, document: 'autorizacion', expiresAt: new Date(Date.now() + 3_600_000) });
    return link.pdfTokenUrl;
  });
}

/** The transaction's attempt counters as the service reports them. */
async function serverAttempts(uuidTrx: string): Promise<Record<string, number>> {
  const res = await fetch(`${server.url}/v1/transactions/${uuidTrx}/events`, { headers: { authorization: 'Bearer demo-secret' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { payload: { transaction: { attempts: Record<string, number> } } }).payload.transaction.attempts;
}

describe('result-link flow with the fake camera and the real face engine', () => {
  it('/pdf_token → /pdf_video_token (the ID holder) → /pdf_token_result downloads pdf_autorizacion.pdf once', async () => {
    const url = await issueLink(await transactionWithDocuments());
    browser = await launchBrowser({ videoFile: holder.y4m, audioFile: holder.wav });
    const context = await newPhoneOrDesktop(browser, 'phone');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(url);
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await page.waitForURL('**/pdf_video_token');
    expect(await page.evaluate(() => localStorage.getItem('linkToken'))).toBe(new URL(url).searchParams.get('token'));
    await page.getByRole('heading', { name: 'Confirmación de identidad' }).waitFor();
    await page.getByRole('button', { name: 'CONTINUAR' }).click();
    await page.getByText('Lee cada número en voz alta y claro conforme aparezca').waitFor({ timeout: 40_000 });
    await page.waitForURL('**/pdf_token_result', { timeout: 90_000 });
    await screenshot(page, 'phone-link-01-pdf_token_result');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const enlace = await page.evaluate(() => localStorage.getItem('enlace'));
    expect(enlace).toMatch(/\/v1\/enlace\//);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'DESCARGAR DOCUMENTO' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('pdf_autorizacion.pdf');
    const saved = await readFile((await file.path())!);
    expect(saved.subarray(0, 5).toString()).toBe('%PDF-');
    // Consulted once: the same link is refused afterwards.
    expect((await fetch(new URL(new URL(enlace!).pathname, server.url))).status).toBe(410);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 200_000);

  it('docs/flow.md §9 "3 for the error modal and 5 for the final screen": the 3rd failed video offers only Reiniciar, back to /pdf_token', async () => {
    const subject = await transactionWithDocuments();
    const url = await issueLink(subject);
    // Two failed videos already (as the earlier attempts of this person would have left them, server and browser).
    const { raiseAttempts } = (await import(dist('store/attempts.js'))) as typeof import('../../apps/server/src/store/attempts.js');
    await withServerDb((db) => raiseAttempts(db, subject.uuidTrx, 'video_token_pdf', 2));
    const strangerBrowser = await launchBrowser({ videoFile: stranger.y4m, audioFile: stranger.wav });
    try {
      const context = await newPhoneOrDesktop(strangerBrowser, 'phone');
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(url);
      await page.getByRole('button', { name: 'CONTINUAR' }).waitFor();
      await page.evaluate(() => localStorage.setItem('intentsData', JSON.stringify({ video_token: 2 })));
      // The same link again keeps its attempts.
      await page.reload();
      await page.getByRole('button', { name: 'CONTINUAR' }).click();
      await page.waitForURL('**/pdf_video_token');
      await page.getByRole('button', { name: 'CONTINUAR' }).click();

      // Somebody else reads the code: the third failure.
      const dialog = page.getByRole('dialog', { name: 'Lo sentimos' });
      await dialog.waitFor({ timeout: 90_000 });
      await screenshot(page, 'phone-link-02-tercer-intento');
      expect(await page.getByTestId('face-error').textContent()).toBe('Lo sentimos detectamos inconsistencias en tu captura, por favor reinicia el proceso.');
      expect(await dialog.getByRole('button', { name: 'Reintentar' }).count()).toBe(0);
      await dialog.getByText('Te quedan 2 intentos.').waitFor();
      expect(await serverAttempts(subject.uuidTrx)).toMatchObject({ video_token_pdf: 3 });

      await dialog.getByRole('button', { name: 'Reiniciar' }).click();
      await page.waitForURL((to) => to.pathname === '/pdf_token');
      const query = Object.fromEntries(new URL(page.url()).searchParams);
      const link = Object.fromEntries(new URL(url).searchParams);
      expect(query).toEqual({ uuid: link.uuid, idOtorgante: link.idOtorgante, fecha: link.fecha, uuidTrx: link.uuidTrx });
      await page.getByRole('button', { name: 'CONTINUAR' }).click();
      await page.waitForURL('**/pdf_video_token');
      // A fresh start of the face video, the attempts kept (no final screen yet, and no reset either).
      await page.getByRole('heading', { name: 'Confirmación de identidad' }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('intentsData'))).toBe(JSON.stringify({ video_token: 3 }));
      expect(await page.evaluate(() => localStorage.getItem('linkToken'))).toBe(link.token);
      expect(pageErrors).toEqual([]);
      await context.close();
    } finally {
      await strangerBrowser.close();
    }
  }, 200_000);
});
