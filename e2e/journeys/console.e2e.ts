import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateFixtureSet, writeFaceVideo } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newWatchedPage, screenshot, seriousA11yViolations, type ViewportName } from '../support/browser.js';
import { stopAll } from '../support/rig.js';
import { serverModule, withServerData } from '../support/server-data.js';
import { startServer, type RunningServer } from '../support/server.js';
import { grantorCli } from '../support/transactions.js';
import { fixtureDay } from '../support/fixture-day.js';
import { generateHolder } from '../support/face-video.js';
import { totp } from '../support/totp.js';

const holderName = 'María Fernanda Núñez Zúñiga';
const curp = 'NUZM900101MDFXXX09';

let server: RunningServer;
let browser: Browser;
let uuidTrx: string;

beforeAll(async () => {
  // Plain http on 127.0.0.1: the session cookie cannot be Secure here (README "Review console").
  server = await startServer({ CONSOLE_COOKIE_SECURE: 'false' });
  browser = await launchBrowser();
  // A case of the demo grantor, created through the flow's API: a lifecycle event with the name, then the CURP.
  const headers = { 'content-type': 'application/json', apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  uuidTrx = headers.transaccion;
  const event = {
    trx_id: headers.transaccion,
    company_id: '00000000-0000-4000-8000-000000000001',
    client_id: headers.cliente,
    step: 'identificacion',
    event: JSON.stringify({ status: 'OK', step: 'identificacion', description: 'Capturó su identificación' }),
    origin: 'celd',
    nombreCompleto: holderName,
  };
  expect((await fetch(`${server.url}/v1/update_cycle`, { method: 'POST', headers, body: JSON.stringify(event) })).status).toBe(200);
  // The person accepted the terms first: the server refuses the CURP check before them (the journey's order).
  const dato = JSON.stringify({ version: 'e2e', sha256: 'a'.repeat(64), userAgent: 'e2e' });
  const consent = { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso: 'terminos', tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() };
  expect((await fetch(`${server.url}/v1/celd_events`, { method: 'POST', headers, body: JSON.stringify(consent) })).status).toBe(200);
  // The partner's server records the CURP check with its secret server key (the publishable key alone is refused).
  const renapo = await fetch(`${server.url}/v1/renapo`, {
    method: 'POST',
    headers: { ...headers, authorization: 'Bearer demo-secret' },
    body: JSON.stringify({ uuid: headers.cliente, turn: -1, curp }),
  });
  expect(renapo.status).toBe(200);
});

const demoId = '00000000-0000-4000-8000-000000000001';

/** A generated INE (front and back), read by the real /v2/ocr into the finished cases: the file shows its images. */
async function generatedIne(): Promise<{ front: string; back: string }> {
  const work = await mkdtemp(path.join(tmpdir(), 'console-e2e-'));
  await generateFixtureSet({ outDir: work, seed: 22, count: 1, kinds: ['ine'], degradations: [], referenceDate: fixtureDay });
  return { front: path.join(work, 'ine-000-front-clean.png'), back: path.join(work, 'ine-000-back-clean.png') };
}
let ine: Promise<{ front: string; back: string }> | undefined;
/** The client id of each finished case (transaction → cliente). */
const clients = new Map<string, string>();

/**
 * A finished case of the demo grantor, through the flow's API: the name, the consents, the ID front and back read
 * by /v2/ocr, the CURP check, the end.
 */
async function finishedCase(name: string, caseCurp: string): Promise<string> {
  const headers = { 'content-type': 'application/json', apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  const event = (step: string, status: string, description: string) => ({
    trx_id: headers.transaccion,
    company_id: demoId,
    client_id: headers.cliente,
    step,
    event: JSON.stringify({ status, step, description }),
    origin: 'celd',
    nombreCompleto: name,
  });
  const post = (url: string, body: unknown, extra: Record<string, string> = {}) => fetch(`${server.url}${url}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  expect((await post('/v1/update_cycle', event('terminos', 'OK', 'Aceptó el aviso de privacidad'))).status).toBe(200);
  for (const paso of ['terminos', 'clausula', 'autorizacion']) {
    const dato = JSON.stringify({ version: 'e2e', sha256: 'b'.repeat(64), userAgent: 'e2e' });
    const consent = { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: '', paso, tipo: 'Aceptación', dato, finished: false, time_stamp: new Date().toISOString() };
    expect((await post('/v1/celd_events', consent)).status).toBe(200);
  }
  ine ??= generatedIne();
  const images = await ine;
  for (const [side, file] of [
    ['front', images.front],
    ['back', images.back],
  ] as const) {
    const form = new FormData();
    form.append('uuidUser', headers.cliente);
    form.append('side', side);
    form.append('originOS', 'android');
    form.append('ine', new Blob([await readFile(file)], { type: 'image/png' }), `${side}.png`);
    const read = await fetch(`${server.url}/v2/ocr`, { method: 'POST', headers: { transaccion: headers.transaccion, cliente: headers.cliente, apikey: 'demo' }, body: form });
    expect(read.status, await read.clone().text()).toBe(200);
  }
  expect((await post('/v1/renapo', { uuid: headers.cliente, turn: -1, curp: caseCurp }, { authorization: 'Bearer demo-secret' })).status).toBe(200);
  expect((await post('/v1/update_cycle', event('finished', 'FAIL', 'Proceso concluido'))).status).toBe(200);
  clients.set(headers.transaccion, headers.cliente);
  return headers.transaccion;
}

/**
 * The face video of a finished case: the generated holder of the case's INE (seed 22) reading a code, encoded as the
 * browser uploads it (VP8 webm), stored encrypted with a face decision as the face-video route stores them. The
 * decision itself is the engine's business (the face-video journeys); here the console shows what was stored.
 */
async function storeFaceVideo(uuidTrx: string, uuidUser: string): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'console-e2e-face-'));
  const holder = await generateHolder(work);
  const files = await writeFaceVideo({ faceId: holder.faceId, kind: 'live', code: '4729', seed: 'console', durationMs: 4000, fps: 10, outDir: work, name: 'face', format: 'webm' });
  const { createBlobStore } = await serverModule<typeof import('../../apps/server/src/blob/index.js')>('blob/index.js');
  const { addEvidence } = await serverModule<typeof import('../../apps/server/src/store/evidence.js')>('store/evidence.js');
  await withServerData(server, async ({ config, db, cipher }) => {
    const blob = await createBlobStore(config, cipher).put(`${demoId}/${uuidUser}/video_token/${uuidTrx}-e2e.webm`, await readFile(files.video), { contentType: 'video/webm' });
    await addEvidence(db, cipher, {
      uuidTrx,
      grantorId: demoId,
      kind: 'video_token',
      blobKey: blob.key,
      sha256: blob.sha256,
      payload: { match: true, faceScore: 0.91, threshold: 0.6, liveness: { passed: true, spoof: false, signals: {} }, spokenCode: { verified: null, engine: 'none', detail: 'sin modelo de voz' } },
    });
  });
}

let receiver: Server | undefined;
const delivered: { id: string; type: string; data: Record<string, unknown> }[] = [];

afterAll(() => {
  receiver?.close();
  return stopAll({ browser, server });
});

describe.each<ViewportName>(['desktop', 'phone'])('the review console on a %s', (viewport) => {
  it('signs in with password and TOTP code, finds the case by CURP, signs out', async () => {
    const email = `admin-${viewport}@demo.example`;
    const created = await grantorCli(server, ['console-user-create', '--grantor', '00000000-0000-4000-8000-000000000001', '--email', email, '--role', 'admin']);
    const password = /password: (\S+)/.exec(created)![1]!;
    const secret = new URL(/totp: +(\S+)/.exec(created)![1]!).searchParams.get('secret')!;

    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    const cspReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });

    const response = await page.goto(`${server.url}/console`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.getByRole('heading', { name: 'Consola de revisión' }).isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-01-sign-in`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill('no-es-la-contraseña');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('incorrectos');
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();

    const codeInput = page.getByLabel('Código de verificación');
    await expect.poll(() => codeInput.isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-${viewport}-02-code`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await codeInput.fill(totp(secret));
    await page.getByRole('button', { name: 'Verificar código' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Expedientes' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const row = page.getByRole('row').filter({ hasText: holderName });
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await row.textContent()).toContain(uuidTrx.slice(0, 8));
    expect(await row.textContent()).toContain('En curso: identificación');
    // The cookie is HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await screenshot(page, `console-${viewport}-03-cases`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Buscar por folio, nombre o CURP').fill(curp.toLowerCase());
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => page.getByText('Página 1: 1 expediente').isVisible()).toBe(true);
    await page.getByLabel('Buscar por folio, nombre o CURP').fill('PEREZ GOMEZ');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => page.getByText('No hay expedientes que coincidan.').isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-04-no-results`);

    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect.poll(() => page.getByText('Cerraste sesión.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByLabel('Correo electrónico').isVisible()).toBe(true);

    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
    await context.close();
  });

  it('a reviewer opens a finished case from the list, reads its file and approves it; the list says reviewed and the webhook arrives', async () => {
    if (!receiver) {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          delivered.push(JSON.parse(body) as (typeof delivered)[number]);
          res.end();
        });
      });
      await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
      await grantorCli(server, ['webhook-add', demoId, '--url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`]);
    }
    const name = viewport === 'desktop' ? 'Ramón Ibáñez Peña' : 'Sofía Muñoz Ávila';
    // Its own CURP: the first test's search by CURP finds exactly one case.
    const finished = await finishedCase(name, viewport === 'desktop' ? 'IAPR800101HDFBXM05' : 'MUAS900202MDFXVF07');
    const email = `reviewer-${viewport}@demo.example`;
    const created = await grantorCli(server, ['console-user-create', '--grantor', demoId, '--email', email, '--role', 'reviewer']);
    const password = /password: (\S+)/.exec(created)![1]!;

    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    await row.getByRole('button', { name: `Abrir el expediente ${finished.slice(0, 8)}` }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Calificación' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('heading', { name: 'Consentimientos' }).isVisible()).toBe(true);
    expect(await page.getByText('Cláusula de medios electrónicos').isVisible()).toBe(true);
    expect(await page.getByText('CURP ante RENAPO').first().isVisible()).toBe(true);
    // The ID images, decrypted by the server for this session, load under the console's CSP.
    const front = page.getByRole('img', { name: 'Identificación: frente' });
    await front.scrollIntoViewIfNeeded(); // loading="lazy": below the fold on a phone
    await expect.poll(() => front.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, `console-${viewport}-05-case-file`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Aprobar', { exact: true }).check();
    await page.getByLabel('Motivo').selectOption('documents_confirmed');
    await page.getByLabel('Nota').fill('Revisé la CURP y los consentimientos.');
    await page.getByRole('button', { name: 'Aprobar expediente' }).click();
    await expect.poll(() => page.getByText('Documentos verificados').first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText('Revisado: aprobado').first().isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-06-reviewed`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: '← Volver a la lista' }).click();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Revisado: aprobado');
    await expect.poll(() => delivered.find((e) => e.type === 'review.decided' && e.data.uuidTrx === finished)?.data.decision, { timeout: 15_000 }).toBe('approve');

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('an admin opens Webhooks, reads the delivery log and replays a delivery; the receiver gets the same event again', async () => {
    const email = `hooks-admin-${viewport}@demo.example`;
    const created = await grantorCli(server, ['console-user-create', '--grantor', demoId, '--email', email, '--role', 'admin']);
    const password = /password: (\S+)/.exec(created)![1]!;
    const secret = new URL(/totp: +(\S+)/.exec(created)![1]!).searchParams.get('secret')!;
    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByLabel('Código de verificación').fill(totp(secret));
    await page.getByRole('button', { name: 'Verificar código' }).click();
    // A case whose person asked for their data to be blocked: the list names no one.
    const blockedName = viewport === 'desktop' ? 'Itzel Cázares Ordóñez' : 'Joaquín Báez Ríos';
    const headers = { 'content-type': 'application/json', apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
    const event = {
      trx_id: headers.transaccion,
      company_id: demoId,
      client_id: headers.cliente,
      step: 'terminos',
      event: JSON.stringify({ status: 'OK', step: 'terminos', description: 'Aceptó' }),
      origin: 'celd',
      nombreCompleto: blockedName,
    };
    expect((await fetch(`${server.url}/v1/update_cycle`, { method: 'POST', headers, body: JSON.stringify(event) })).status).toBe(200);
    await grantorCli(server, ['retention-request', demoId, '--action', 'block', '--folio', headers.transaccion, '--by', 'e2e', '--basis', 'solicitud ARCO e2e']);
    await page.reload();
    const blockedRow = page.getByRole('row').filter({ hasText: 'Datos bloqueados' }).first();
    await expect.poll(() => blockedRow.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText(blockedName).count()).toBe(0);
    await screenshot(page, `console-${viewport}-07-blocked-case`);

    await page.getByRole('button', { name: 'Webhooks' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'Webhooks' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const decided = page.getByRole('row').filter({ hasText: 'Revisión decidida' }).filter({ hasText: 'Entregado' }).first();
    await expect.poll(() => decided.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText('Verificación concluida').first().isVisible()).toBe(true);
    await screenshot(page, `console-${viewport}-08-webhooks`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const eventId = (await decided.locator('code').first().textContent())!.trim();
    const before = delivered.length;
    await decided.getByRole('button', { name: `Reenviar el evento ${eventId}` }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 10_000 }).toContain(eventId);
    await expect.poll(() => delivered.slice(before).some((e) => e.id === eventId), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'reenvío' }).first().isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, `console-${viewport}-09-replayed`);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a reviewer opens the funnel and sees its chart, then a finished case: the holder photo beside frames of the face video, and downloads the file', async () => {
    const name = viewport === 'desktop' ? 'Valeria Ocaña Téllez' : 'Andrés Quiñones Ruiz';
    const finished = await finishedCase(name, viewport === 'desktop' ? 'OATV850303MDFCLL01' : 'QURA870404HDFXZN02');
    await storeFaceVideo(finished, clients.get(finished)!);
    const email = `funnel-${viewport}@demo.example`;
    const created = await grantorCli(server, ['console-user-create', '--grantor', demoId, '--email', email, '--role', 'reviewer']);
    const password = /password: (\S+)/.exec(created)![1]!;

    const { context, page, pageErrors } = await newWatchedPage(browser, viewport);
    const cspReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    await page.goto(`${server.url}/console`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Expedientes' }).isVisible(), { timeout: 10_000 }).toBe(true);

    await page.getByRole('button', { name: 'Embudo' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Embudo de conversión' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const chart = page.locator('figure.funnel-chart');
    await expect.poll(() => chart.isVisible(), { timeout: 15_000 }).toBe(true);
    // Every case of this run was opened today: the link's opening, the terms and the end are among the bars.
    expect(await chart.getByText('Abrió el enlace').isVisible()).toBe(true);
    expect(await chart.getByText('Proceso concluido').isVisible()).toBe(true);
    expect(await chart.locator('rect.funnel-fill').count()).toBeGreaterThanOrEqual(4);
    const opened = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Abrió el enlace' }) });
    expect(Number((await opened.getByRole('cell').first().textContent())!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
    await screenshot(page, `console-${viewport}-10-funnel`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Expedientes' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    await row.getByRole('button', { name: `Abrir el expediente ${finished.slice(0, 8)}` }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Fotografía y video de rostro' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const frames = page.getByRole('img', { name: /^Cuadro del video en el segundo/ });
    await expect.poll(() => frames.count(), { timeout: 30_000 }).toBe(6);
    const holderPhoto = page.locator('.face-compare').getByRole('img', { name: 'Fotografía de la identificación' });
    await holderPhoto.scrollIntoViewIfNeeded();
    await expect.poll(() => holderPhoto.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await frames.last().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The video itself plays from the server (Range requests, decrypted for this session).
    const video = page.locator('video.face-video');
    await video.scrollIntoViewIfNeeded();
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      v.preload = 'auto';
      v.load();
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await page.locator('.case-media').scrollIntoViewIfNeeded();
    await screenshot(page, `console-${viewport}-11-face-frames`);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Descargar expediente' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`expediente-${finished.slice(0, 8)}.zip`);
    const zip = await readFile((await file.path())!);
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.includes(Buffer.from('manifest.json'))).toBe(true);
    expect(zip.includes(Buffer.from('-video_token.webm'))).toBe(true);

    expect(pageErrors).toEqual([]);
    expect(cspReports).toEqual([]);
    await context.close();
  });
});
