import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, screenshot, seriousA11yViolations } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The result-link flow end to end: a link issued for a transaction whose ID front was read by the real /v2/ocr and
 * whose documents were rendered, opened in Chromium (/pdf_token), the face video with the fake camera showing the
 * ID holder (/pdf_video_token, public_otp and public_video_token with the link credential), then
 * /pdf_token_result downloading the PDF once.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => path.join(root, 'apps/server/dist', file);

let server: RunningServer;
let browser: Browser | undefined;
let work: string;
let holder: { y4m: string; wav: string };

/** From CONTINUAR: 7 s positioning + 1 s photo delay + otp + 5 s stability + 2 ticks (as video-token.e2e.ts). */
const firstDigitEarliestMs = 15_000;
const readingDigits = '472951836024';

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-link-'));
  await generateFixtureSet({ outDir: work, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: new Date().toISOString().slice(0, 10) });
  const front = JSON.parse(await readFile(path.join(work, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  const files = await writeFaceVideo({
    faceId: front.face!.id,
    kind: 'live',
    code: readingDigits,
    seed: 'holder',
    durationMs: firstDigitEarliestMs + readingDigits.length * 1000 + 4000,
    firstDigitMs: firstDigitEarliestMs - 1500,
    digitStepMs: 1000,
    fps: 10,
    outDir: work,
    name: 'holder',
    y4m: true,
  });
  holder = { y4m: files.y4m!, wav: files.wav };
  server = await startServer();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A transaction of the demo grantor with the ID front read and the documents rendered, through the public API. */
async function transactionWithDocuments(): Promise<{ uuidTrx: string; uuidUser: string }> {
  const headers = { transaccion: crypto.randomUUID(), cliente: crypto.randomUUID(), apikey: 'demo' };
  expect((await fetch(`${server.url}/v1/params`, { headers })).status).toBe(200);
  const form = new FormData();
  form.append('uuidUser', headers.cliente);
  form.append('side', 'front');
  form.append('ine', new Blob([await readFile(path.join(work, 'ine-000-front-clean.png'))], { type: 'image/png' }), 'frente.png');
  expect((await fetch(`${server.url}/v2/ocr`, { method: 'POST', headers, body: form })).status).toBe(200);
  const docs = await fetch(`${server.url}/v1/proccessdocuments`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ uuidUser: headers.cliente }),
  });
  expect(docs.status).toBe(200);
  return { uuidTrx: headers.transaccion, uuidUser: headers.cliente };
}

/** The link the result e-mail would carry, issued in the server's own database with its link key. */
async function issueLink(subject: { uuidTrx: string; uuidUser: string }): Promise<string> {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../apps/server/src/config.js');
  const { createDatabase } = (await import(dist('store/db.js'))) as typeof import('../../apps/server/src/store/db.js');
  const { loadLinkKey } = (await import(dist('crypto/link-key.js'))) as typeof import('../../apps/server/src/crypto/link-key.js');
  const { issueResultLink } = (await import(dist('results/links.js'))) as typeof import('../../apps/server/src/results/links.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' });
  const db = createDatabase(config.database);
  try {
    const grantor = await db.selectFrom('grantors').select('id').executeTakeFirstOrThrow();
    const ctx = { db, linkKey: loadLinkKey(config).key, baseUrl: server.url };
    const link = await issueResultLink(ctx, { ...subject, grantorId: grantor.id, document: 'autorizacion', expiresAt: new Date(Date.now() + 3_600_000) });
    return link.pdfTokenUrl;
  } finally {
    await db.destroy();
  }
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
});
