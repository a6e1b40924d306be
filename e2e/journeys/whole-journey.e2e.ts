import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import { simpleParser } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPhoneOrDesktop, screenshot, type ViewportName } from '../support/browser.js';
import { cameraFrame, captureSide } from '../support/camera.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * Issue #6 "The whole journey": one customer from the grantor's entry page to the final screen, in headless
 * Chromium with the fake camera (generated INE, then the generated face video) and the fake microphone (espeak
 * digits), against the built server with its real OCR, face engine, scoring, documents and e-mail outbox.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let server: RunningServer;
let browser: Browser | undefined;
let work: string;
let front: GroundTruth;
let camera: string;
let microphone: string;
let frontY4m: string;
let backY4m: string;
let person: { y4m: string; wav: string };
let stranger: { y4m: string; wav: string };
/** A grantor allowing two face-video attempts (the RED journey). */
let twoAttemptsKey: string;

/** From CONTINUAR on /video_token: 7 s positioning + 1 s photo delay + otp + 5 s stability + 2 ticks. */
const firstDigitEarliestMs = 15_000;
const readingDigits = '472951836024';

async function faceVideo(faceId: string, name: string): Promise<{ y4m: string; wav: string }> {
  const files = await writeFaceVideo({
    faceId,
    kind: 'live',
    code: readingDigits,
    seed: name,
    durationMs: firstDigitEarliestMs + readingDigits.length * 1000 + 4000,
    firstDigitMs: firstDigitEarliestMs - 1500,
    digitStepMs: 1000,
    fps: 10,
    outDir: work,
    name,
    y4m: true,
  });
  if (!files.y4m) throw new Error('no y4m written');
  return { y4m: files.y4m, wav: files.wav };
}

/** Chromium reopens the fake files whenever the flow reopens the camera: swap them atomically. */
async function show(file: string, to: string): Promise<void> {
  const staged = `${to}.staged`;
  await copyFile(file, staged);
  await rename(staged, to);
}

async function grantorCli(...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'apps/server/dist/cli/grantor.js'), ...args], { env });
  return stdout;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-journey-'));
  // Seed 22: the INE holder's face and a clearly different person are the pair the face engine separates.
  await generateFixtureSet({ outDir: work, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: new Date().toISOString().slice(0, 10) });
  front = JSON.parse(await readFile(path.join(work, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  const faceId = front.face?.id;
  if (!faceId) throw new Error('the generated INE has no face');
  const otherId = faceId === 'fa-s3-a' ? 'fa-s5-c' : 'fa-s3-a';
  frontY4m = path.join(work, 'front.y4m');
  backY4m = path.join(work, 'back.y4m');
  [person, stranger] = await Promise.all([
    faceVideo(faceId, 'person'),
    faceVideo(otherId, 'stranger'),
    cameraFrame(path.join(work, 'ine-000-front-clean.png'), frontY4m),
    cameraFrame(path.join(work, 'ine-000-back-clean.png'), backY4m),
  ]);
  camera = path.join(work, 'camera.y4m');
  microphone = path.join(work, 'microphone.wav');
  // The bench's journey suite reads the server's request log (handling time per call) from this file.
  const serverLog = process.env.KYC_JOURNEY_SERVER_LOG;
  server = await startServer(serverLog ? { LOG_LEVEL: 'info' } : {}, serverLog ? { onOutput: (chunk) => appendFileSync(serverLog, chunk) } : {});
  const created = await grantorCli('create', '--name', 'Financiera Dos Intentos');
  const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(created)?.[0];
  const key = /api ?key\W+(\S+)/i.exec(created)?.[1];
  if (!id || !key) throw new Error(`grantor create printed:\n${created}`);
  twoAttemptsKey = key;
  await grantorCli('set', id, 'INTENTOS_VIDEO_TOKEN=2');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A fresh browser whose fake camera starts on the ID front and whose microphone reads the code. */
async function freshBrowser(face: { wav: string }): Promise<Browser> {
  await browser?.close();
  await show(frontY4m, camera);
  await show(face.wav, microphone);
  browser = await launchBrowser({ videoFile: camera, audioFile: microphone });
  return browser;
}

interface Session {
  uuidUser: string;
  uuidTrx: string;
  apikey: string;
}

async function session(page: Page): Promise<Session> {
  return page.evaluate(() => ({
    uuidUser: localStorage.getItem('uuidUser') ?? '',
    uuidTrx: localStorage.getItem('uuidTrx') ?? '',
    apikey: localStorage.getItem('apikeyOtorgante') ?? '',
  }));
}

interface Events {
  payload: { lifecycle: Array<{ step: string; event: string }>; evidence: Array<{ kind: string }> };
}

async function transactionEvents(s: Session): Promise<Events['payload']> {
  const response = await fetch(`${server.url}/v1/transactions/${s.uuidTrx}/events`, { headers: { apikey: s.apikey } });
  expect(response.status).toBe(200);
  return ((await response.json()) as Events).payload;
}

async function queryScore(s: Session): Promise<{ flag: string; Fields: Array<{ rule: string; passed: boolean; detail: string }> }> {
  const response = await fetch(`${server.url}/v1/query_score/${s.uuidUser}/${s.uuidTrx}`, {
    headers: { transaccion: s.uuidTrx, cliente: s.uuidUser, apikey: s.apikey },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { payload: { flag: string; Fields: Array<{ rule: string; passed: boolean; detail: string }> } }).payload;
}

/** Entry page → consent → ID front and back → confirmation form → address → clause → authorization → /video_token. */
async function upToTheVideo(page: Page, entry: string, shot: string, viewport: ViewportName = 'phone'): Promise<Session> {
  await page.goto(`${server.url}/${entry}`);
  const start = page.getByRole('button', { name: 'EMPEZAR' });
  await expect.poll(() => start.isEnabled(), { timeout: 15_000 }).toBe(true);
  await screenshot(page, `${shot}-01-inicio`);
  await start.click();
  await page.waitForURL('**/terminos');
  await page.getByRole('checkbox').check();
  await screenshot(page, `${shot}-02-terminos`);
  await page.waitForURL('**/preparacion_identificacion');
  await page.getByRole('button', { name: 'CAPTURAR IDENTIFICACIÓN' }).click();
  await page.getByRole('heading', { name: 'Tómale una foto al frente de tu identificación' }).waitFor();
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
  if (viewport === 'desktop') {
    // On a desktop the camera opens with a tip on holding the ID up to the webcam.
    const tip = page.getByRole('dialog');
    await tip.waitFor({ timeout: 20_000 });
    await screenshot(page, `${shot}-02b-sostener`);
    await tip.getByRole('button').first().click();
  }

  await captureSide(page, 'CAPTURAR FRENTE');
  await show(backY4m, camera);
  await captureSide(page, 'CAPTURAR REVERSO');

  await page.waitForURL('**/resultados_identificacion', { timeout: 60_000 });
  await page.getByRole('heading', { name: 'Verifica tu información' }).waitFor();
  expect(await page.locator('input[name="nombreCompleto"]').inputValue()).toBe(front.ocrFront?.nombreCompleto);
  await screenshot(page, `${shot}-03-verifica`);
  await page.getByRole('button', { name: 'CONTINUAR' }).click();

  await page.waitForURL('**/identificacion_edit', { timeout: 10_000 });
  await page.getByRole('heading', { name: 'Verifica y completa tu dirección actual' }).waitFor();
  const field = (name: string) => page.locator(`[name="${name}"]`);
  await field('codigoPostal').fill('06700');
  await expect.poll(() => field('colonia').inputValue(), { timeout: 10_000 }).toBe('Roma Norte');
  expect(await field('delegacion').inputValue()).toMatch(/Cuauht[ée]moc/i);
  await field('calle').fill('Calle Hidalgo');
  await field('numeroExterior').fill('59');
  await screenshot(page, `${shot}-04-direccion`);
  await page.getByRole('button', { name: 'GUARDAR' }).click();

  await page.waitForURL('**/clausula', { timeout: 10_000 });
  await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();
  await page.waitForURL('**/validacion_documento');
  await page.getByRole('heading', { name: 'Cláusula de medios electrónicos' }).waitFor();
  await screenshot(page, `${shot}-05-clausula`);
  await page.getByRole('checkbox').check();
  await page.waitForURL('**/autorizacion_solicitud', { timeout: 10_000 });
  await page.getByRole('button', { name: 'LEER DOCUMENTO' }).click();
  await page.waitForURL('**/autorizacion_documento');
  await page.getByRole('heading', { name: 'Autorización para consultar tu información' }).waitFor();
  await page.getByRole('checkbox').check();
  await page.waitForURL('**/video_token', { timeout: 10_000 });
  return session(page);
}

/** CONTINUAR on the face video intro, then the code's digits on screen. */
async function recordFaceVideo(page: Page, shot: string): Promise<void> {
  await page.getByRole('heading', { name: 'Confirmación de identidad' }).waitFor();
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
  await page.getByText('Ubica tu rostro de frente para empezar').waitFor({ timeout: 10_000 });
  await screenshot(page, `${shot}-rostro`);
  await page.getByText('Lee cada número en voz alta y claro conforme aparezca').waitFor({ timeout: 40_000 });
  await page.locator('.face-video__digit[data-slot="1"]').waitFor({ timeout: 15_000 });
  await screenshot(page, `${shot}-digito`);
}

/** The .eml files of the server's outbox (SMTP_URL unset), once one lands. */
async function outboxMessages(): Promise<string[]> {
  const dir = path.join(server.dataDir, 'outbox');
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.eml')).map((n) => path.join(dir, n));
}

async function greenJourney(viewport: ViewportName): Promise<void> {
  const context = await newPhoneOrDesktop(await freshBrowser(person), viewport);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const shot = `${viewport}-journey-green`;
  const before = new Set(await outboxMessages());

  const s = await upToTheVideo(page, 'demo', shot, viewport);
  await show(person.y4m, camera);
  await recordFaceVideo(page, `${shot}-06-video`);
  await page.waitForURL('**/finalizado', { timeout: 60_000 });
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
  await expect.poll(() => page.evaluate(() => localStorage.getItem('completado')), { timeout: 20_000 }).toBe('true');
  await screenshot(page, `${shot}-09-enviado`);

  // The e-mail goes through the durable job queue to the outbox.
  let eml = '';
  await expect
    .poll(async () => {
      const fresh = (await outboxMessages()).filter((f) => !before.has(f));
      if (fresh.length === 0) return false;
      eml = await readFile(fresh[0]!, 'utf8');
      return true;
    }, { timeout: 30_000, interval: 250 })
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
  const name = String(front.ocrFront?.nombreCompleto ?? '');
  expect(name).not.toBe('');
  expect(pdfText.toUpperCase()).toContain(name.toUpperCase());

  const events = await transactionEvents(s);
  const finished = events.lifecycle.find((e) => e.step === 'finished');
  expect(finished && JSON.parse(finished.event)).toMatchObject({ status: 'OK' });
  const kinds = events.evidence.map((e) => e.kind);
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
  it('GREEN: entry → consent → ID → confirmation → address → clause → authorization → face video → score → e-mail with the report', async () => {
    await greenJourney('phone');
  }, 180_000);

  // The same journey on a desktop viewport (the ID held up to the webcam): about a minute more, so run on demand
  // (KYC_E2E_JOURNEY_DESKTOP=1) to keep the suite short; it passed when this file was written.
  it.runIf(process.env.KYC_E2E_JOURNEY_DESKTOP === '1')('GREEN on a desktop viewport', async () => {
    await greenJourney('desktop');
  }, 180_000);

  it('RED: someone else on the face video → "Lo sentimos" with Reiniciar → again → "Proceso no exitoso"; query_score RED with the face rule failed', async () => {
    const context = await newPhoneOrDesktop(await freshBrowser(stranger), 'phone');
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const shot = 'phone-journey-red';
    const s = await upToTheVideo(page, twoAttemptsKey, shot);
    await show(stranger.y4m, camera);

    await recordFaceVideo(page, `${shot}-06-video`);
    const dialog = page.getByRole('dialog', { name: 'Lo sentimos' });
    await dialog.waitFor({ timeout: 60_000 });
    await screenshot(page, `${shot}-07-no-coincide`);
    expect(await page.getByTestId('face-error').textContent()).toBe(
      'Lo sentimos detectamos inconsistencias en tu captura, por favor reinicia el proceso.',
    );
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
  }, 180_000);
});
