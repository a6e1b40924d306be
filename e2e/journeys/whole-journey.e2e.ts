import { appendFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { PDFDocument } from '@cantoo/pdf-lib';
import { stripAccentsKeepEnye } from '@kyc/fixtures';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhoneOrDesktop, screenshot, type ViewportName } from '../support/browser.js';
import { cameraFrame } from '../support/camera.js';
import { FakeMedia, generateHolder, readingVideo, type FaceMedia, type Holder } from '../support/face-video.js';
import { acceptConsents, captureId, confirmData, faceVideoOutcome, fillAddress, recordFaceVideo, session, startAndAcceptTerms, type Session } from '../support/journey-steps.js';
import { startServer, type RunningServer } from '../support/server.js';
import { createDataCipher, loadDataKey } from '../../apps/server/src/crypto/data-cipher.js';
import { listOutbox } from '../../apps/server/src/mail/mailer.js';
import { grantorCli, transactionEvents } from '../support/transactions.js';

/**
 * Issue #6 "The whole journey": one customer from the grantor's entry page to the final screen, in headless
 * Chromium with the fake camera (generated INE, then the generated face video) and the fake microphone (espeak
 * digits), against the built server with its real OCR, face engine, scoring, documents and e-mail outbox.
 */

let server: RunningServer;
let browser: Browser | undefined;
let work: string;
let holder: Holder;
let media: FakeMedia;
let frontY4m: string;
let backY4m: string;
let person: FaceMedia;
let stranger: FaceMedia;
/** A grantor allowing two face-video attempts (the RED journey). */
let twoAttemptsKey: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-journey-'));
  // Seed 22: the INE holder's face and a clearly different person are the pair the face engine separates.
  holder = await generateHolder(work);
  frontY4m = path.join(work, 'front.y4m');
  backY4m = path.join(work, 'back.y4m');
  [person, stranger] = await Promise.all([
    readingVideo(work, holder.faceId, 'person'),
    readingVideo(work, holder.strangerFaceId, 'stranger'),
    cameraFrame(holder.frontPng, frontY4m),
    cameraFrame(holder.backPng, backY4m),
  ]);
  media = new FakeMedia(work);
  // The bench's journey suite reads the server's request log (handling time per call) from this file.
  const serverLog = process.env.KYC_JOURNEY_SERVER_LOG;
  server = await startServer(serverLog ? { LOG_LEVEL: 'info' } : {}, serverLog ? { onOutput: (chunk) => appendFileSync(serverLog, chunk) } : {});
  const created = await grantorCli(server, ['create', '--name', 'Financiera Dos Intentos']);
  const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(created)?.[0];
  const key = /api ?key\W+(\S+)/i.exec(created)?.[1];
  if (!id || !key) throw new Error(`grantor create printed:\n${created}`);
  twoAttemptsKey = key;
  await grantorCli(server, ['set', id, 'INTENTOS_VIDEO_TOKEN=2']);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A fresh browser whose fake camera starts on the ID front and whose microphone reads the code. */
async function freshBrowser(face: FaceMedia): Promise<Browser> {
  await browser?.close();
  await media.show(frontY4m);
  await media.hear(face.wav);
  browser = await media.launch();
  return browser;
}

async function queryScore(s: Session): Promise<{ flag: string; Fields: Array<{ rule: string; passed: boolean; detail: string }> }> {
  const response = await fetch(`${server.url}/v1/query_score/${s.uuidUser}/${s.uuidTrx}`, {
    // As the customer's browser reads it: the publishable key alone reads nothing (issue #15).
    headers: { transaccion: s.uuidTrx, cliente: s.uuidUser, apikey: s.apikey, 'x-transaction-token': s.transactionToken },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { payload: { flag: string; Fields: Array<{ rule: string; passed: boolean; detail: string }> } }).payload;
}

/** Entry page → consent → ID front and back → confirmation form → address → clause → authorization → /video_token. */
async function upToTheVideo(page: Page, entry: string, shot: string, viewport: ViewportName = 'phone'): Promise<Session> {
  await page.goto(`${server.url}/${entry}`);
  await startAndAcceptTerms(page, shot);
  await captureId(page, () => media.show(backY4m), { viewport, shot });
  await confirmData(page, holder.front.ocrFront?.nombreCompleto, shot);
  await fillAddress(page, shot);
  await acceptConsents(page, shot);
  return session(page);
}

/** The messages of the server's outbox (SMTP_URL unset), sealed with its data key at rest: file → decrypted .eml. */
async function outboxMail(): Promise<Map<string, string>> {
  const cipher = createDataCipher(loadDataKey({ dataDir: server.dataDir, dataEncryptionKey: undefined }).key);
  return new Map((await listOutbox(server.dataDir, cipher)).map((m) => [m.file, m.eml]));
}

async function outboxMessages(): Promise<string[]> {
  const dir = path.join(server.dataDir, 'outbox');
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.eml.sealed')).map((n) => path.join(dir, n));
}

async function greenJourney(viewport: ViewportName): Promise<void> {
  const context = await newPhoneOrDesktop(await freshBrowser(person), viewport);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const shot = `${viewport}-journey-green`;
  const before = new Set(await outboxMessages());

  const s = await upToTheVideo(page, 'demo', shot, viewport);
  await media.show(person.y4m);
  await recordFaceVideo(page, `${shot}-06-video`);
  expect(await faceVideoOutcome(page, 'finalizado', 60_000)).toBe('finalizado');
  await page.getByRole('heading', { name: 'Muchas Gracias' }).waitFor({ timeout: 30_000 });
  const score = await queryScore(s);
  expect(score.flag, JSON.stringify(score.Fields, null, 1)).toBe('GREEN');
  await screenshot(page, `${shot}-07-finalizado`);
  expect(await page.locator('main').innerText()).toContain('Tu solicitud está completa');

  const email = `cliente.${viewport}@example.com`;
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(email);
  await page.getByRole('button', { name: 'TERMINAR' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirma tu correo electrónico' });
  await dialog.waitFor();
  await screenshot(page, `${shot}-08-confirma`);
  await dialog.getByRole('button', { name: 'TERMINAR' }).click();
  // The person is told where the result went before the flow returns to its start.
  await page.getByRole('heading', { name: 'Resultado enviado' }).waitFor({ timeout: 20_000 });
  expect(await page.getByRole('status').filter({ hasText: email }).innerText()).toContain(`Enviamos el resultado de tu proceso a ${email}.`);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('completado')), { timeout: 20_000 }).toBe('true');
  await screenshot(page, `${shot}-09-enviado`);
  await page.getByRole('button', { name: 'ENTENDIDO' }).click();
  await page.getByRole('button', { name: 'EMPEZAR' }).waitFor({ timeout: 10_000 });

  // The e-mail goes through the durable job queue to the outbox.
  let eml = '';
  await expect
    .poll(
      async () => {
        const fresh = (await outboxMessages()).filter((f) => !before.has(f));
        if (fresh.length === 0) return false;
        eml = (await outboxMail()).get(fresh[0]!) ?? '';
        return eml !== '';
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  const mail = await simpleParser(eml);
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  expect(to.flatMap((a) => a.value.map((v) => v.address))).toEqual([email]);
  const mailText = `${mail.subject ?? ''}\n${mail.text ?? ''}`;
  expect(mailText.toLowerCase()).toMatch(/verde|green|aprobad|complet/);
  const pdfs = mail.attachments.filter((a) => a.contentType === 'application/pdf');
  expect(pdfs.length).toBeGreaterThan(0);
  const pdf = await PDFDocument.load(pdfs[0]!.content);
  expect(pdf.getPageCount()).toBeGreaterThan(0);
  const pdfText = await pdfPlainText(pdfs[0]!.content);
  const name = String(holder.front.ocrFront?.nombreCompleto ?? '');
  expect(name).not.toBe('');
  expect(stripAccentsKeepEnye(pdfText)).toContain(stripAccentsKeepEnye(name));

  const events = await transactionEvents(server, s.apikey, s.uuidTrx);
  const finished = events.lifecycle.find((e) => e.step === 'finished');
  expect(finished && JSON.parse(finished.event)).toMatchObject({ status: 'OK' });
  const kinds = (events.evidence ?? []).map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(['ocr_frente', 'ocr_reverso', 'rostro_identificacion', 'renapo', 'ine', 'video_token', 'data_user', 'documento']));
  // The terms, the clause and the authorization, each accepted once.
  expect(kinds.filter((k) => k === 'consentimiento')).toHaveLength(3);
  // The clause, the authorization and the report.
  expect(kinds.filter((k) => k === 'documento').length).toBeGreaterThanOrEqual(3);
  expect(pageErrors).toEqual([]);
  await context.close();
}

/** The text a PDF draws (its content streams inflated; pdf-lib writes text as hex or literal strings). */
async function pdfPlainText(bytes: Buffer): Promise<string> {
  const { inflateSync } = await import('node:zlib');
  const raw = bytes.toString('latin1');
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content = match[1]!;
    try {
      content = inflateSync(Buffer.from(content, 'latin1')).toString('latin1');
    } catch {
      // not deflated
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) texts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
    for (const lit of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) texts.push(lit[1]!);
  }
  return texts.join('\n');
}

describe('the whole journey (issue #6) in headless Chromium against the built server', () => {
  // One retry, as the other recorded-reading journeys: on a loaded 2-core machine the browser's recording of the
  // generated reading was refused once as the phrase failure (session 16's second CI run; the first passed). Each
  // attempt is a fresh browser, a new transaction and its own e-mail.
  it('GREEN: entry → consent → ID → confirmation → address → clause → authorization → face video → score → e-mail with the report', { retry: 1, timeout: 180_000 }, async () => {
    await greenJourney('phone');
  });

  // The same journey on a desktop viewport (the ID held up to the webcam): about a minute more, so run on demand
  // (KYC_E2E_JOURNEY_DESKTOP=1) to keep the suite short; it passed when this file was written.
  it.runIf(process.env.KYC_E2E_JOURNEY_DESKTOP === '1')(
    'GREEN on a desktop viewport',
    async () => {
      await greenJourney('desktop');
    },
    180_000,
  );

  // One retry too: session 16's third CI run found no EMPEZAR on this journey's entry page once (what the page showed
  // is now printed). Each attempt is a fresh browser and a new transaction of the two-attempt grantor.
  it('RED: someone else on the face video → "Lo sentimos" with Reiniciar → again → "Proceso no exitoso"; query_score RED with the face rule failed', { retry: 1, timeout: 180_000 }, async () => {
    const context = await newPhoneOrDesktop(await freshBrowser(stranger), 'phone');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const shot = 'phone-journey-red';
    const s = await upToTheVideo(page, twoAttemptsKey, shot);
    await media.show(stranger.y4m);

    await recordFaceVideo(page, `${shot}-06-video`);
    const dialog = page.getByRole('dialog', { name: 'Lo sentimos' });
    await dialog.waitFor({ timeout: 60_000 });
    await screenshot(page, `${shot}-07-no-coincide`);
    expect(await page.getByTestId('face-error').textContent()).toBe('Lo sentimos detectamos inconsistencias en tu captura, por favor reinicia el proceso.');
    await dialog.getByRole('button', { name: 'Reiniciar' }).click();
    await recordFaceVideo(page, `${shot}-08-video`);
    await page.getByRole('heading', { name: 'Proceso no exitoso' }).waitFor({ timeout: 60_000 });
    await screenshot(page, `${shot}-09-intentos-agotados`);

    const score = await queryScore(s);
    expect(score.flag).toBe('RED');
    const faceRule = score.Fields.find((f) => f.rule === 'rostro_coincidencia');
    expect(faceRule).toMatchObject({ passed: false });
    expect(faceRule?.detail).toContain('[ROJO]');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
