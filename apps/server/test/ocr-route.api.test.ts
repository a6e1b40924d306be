import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorTexts } from '@kyc/contracts';
import { buildTd1, generateFixtureSet, renderMrzDocumentPng, type GroundTruth } from '@kyc/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, usableFront } from './support/journey.js';
import { multipartBody, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
let fixtures: string;
let front: { truth: GroundTruth; image: Buffer };
let back: { truth: GroundTruth; image: Buffer };
let blank: Buffer;
let badBack: Buffer;
let goodBack: Buffer;

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'ocr-route-'));
  // The INE front as model G/H prints it (names without accents): what a real card looks like.
  await generateFixtureSet({ outDir: fixtures, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26', ineModel: 'g-h' });
  const load = async (id: string) => ({
    truth: JSON.parse(await readFile(path.join(fixtures, `${id}.json`), 'utf8')) as GroundTruth,
    image: await readFile(path.join(fixtures, `${id}.png`)),
  });
  front = await load('ine-000-front-clean');
  back = await load('ine-000-back-clean');
  // A photo of an empty dark table: an image, but no document.
  blank = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#202124' } })
    .png()
    .toBuffer();
  // A Peru DNI back (TD1 'I<PER') as printed, and the same with its birth-date check digit wrong.
  const good = buildTd1({
    documentCode: 'I<',
    issuer: 'PER',
    documentNumber: '46027896',
    optional1: '',
    birthDate: { y: 1988, m: 3, d: 9 },
    sex: 'F',
    expiryDate: { y: 2031, m: 5, d: 20 },
    nationality: 'PER',
    optional2: '',
    surnames: ['QUISPE', 'MAMANI'],
    givenNames: 'ROSA ELENA',
  });
  const bad = [good[0], `${good[1].slice(0, 6)}${(Number(good[1][6]) + 3) % 10}${good[1].slice(7)}`, good[2]];
  const onTable = async (lines: readonly string[]) =>
    sharp(await renderMrzDocumentPng('TD1', lines, 'MUESTRA'))
      .resize({ width: 1400 })
      .extend({ top: 100, bottom: 100, left: 100, right: 100, background: '#2b2b2e' })
      .png()
      .toBuffer();
  goodBack = await onTable(good);
  badBack = await onTable(bad);
}, 60_000);

afterAll(async () => {
  if (fixtures) await rm(fixtures, { recursive: true, force: true });
});

function ocrForm(headers: Headers, side: string, image: Buffer | undefined, extra: Record<string, string> = {}): FormPart[] {
  const text = { uuidUser: headers.cliente, side, bucket: 'identificaciones', originOS: 'android', SERVICE_ROTATE_IMAGE: 'true', ...extra };
  const parts: FormPart[] = Object.entries(text).map(([name, value]) => ({ name, value }));
  if (image) parts.push({ name: 'ine', filename: `${side}.png`, contentType: 'image/png', data: image });
  return parts;
}

describe.each(engines)('POST /v2/ocr ($name)', (engine) => {
  let t: TestApp;
  const otherKey = generateApiKey();

  beforeAll(async () => {
    t = await startTestApp(engine);
    await insertGrantor(t, { id: crypto.randomUUID(), name: 'Crédito Norte', apiKey: otherKey });
  }, 60_000);
  afterAll(async () => t?.close());

  async function post(headers: Headers, parts: FormPart[]) {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...headers, 'content-type': contentType }, payload });
  }

  async function events(uuidTrx: string) {
    const res = await t.app.inject({ method: 'GET', url: `/v1/transactions/${uuidTrx}/events`, headers: { authorization: 'Bearer demo-secret' } });
    return res.json().payload as { transaction: { attempts: Record<string, number>; lockedUntil: string | null }; evidence?: Array<{ kind: string }> };
  }

  it('reads an INE front and back for real and keeps them as evidence', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const frontRes = await post(headers, ocrForm(headers, 'front', front.image));
    expect(frontRes.statusCode, frontRes.body).toBe(200);
    const ocrFront = frontRes.json().payload.ocrData as Record<string, unknown>;
    expect(ocrFront).toMatchObject({
      nombreCompleto: front.truth.ocrFront?.nombreCompleto,
      curp: front.truth.ocrFront?.curp,
      claveElector: front.truth.ocrFront?.claveElector,
      fechaNacimiento: front.truth.ocrFront?.fechaNacimiento,
      identificacionElectoral: true,
    });
    // The review console lists and finds the case by the name and CURP read (features/console/case-index.ts).
    const terms = await t.db.selectFrom('console_search_terms').select('kind').where('uuid_trx', '=', headers.transaccion).execute();
    expect(new Set(terms.map((r) => r.kind))).toEqual(new Set(['curp', 'name']));
    const indexed = await t.db.selectFrom('console_cases').select('holder_name_enc').where('uuid_trx', '=', headers.transaccion).executeTakeFirstOrThrow();
    expect(indexed.holder_name_enc).toMatch(/^v1:/);

    const backRes = await post(headers, ocrForm(headers, 'back', back.image));
    expect(backRes.statusCode, backRes.body).toBe(200);
    expect(backRes.json().payload.ocrData).toMatchObject({ cicMRZ: back.truth.ocrBack?.cicMRZ });

    const after = await events(headers.transaccion);
    const kinds = (after.evidence ?? []).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['ocr_frente', 'ocr_reverso', 'rostro_identificacion']));
    expect(after.transaction.attempts).toEqual({});
  }, 60_000);

  it('counts unreadable captures and locks the transaction when INTENTOS_ID_FRONTAL run out', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const first = await post(headers, ocrForm(headers, 'front', blank));
    expect(first.statusCode).toBe(422);
    expect(first.json().message_client).toBe(errorTexts.idFrontFailed);
    expect((await post(headers, ocrForm(headers, 'front', blank))).statusCode).toBe(422);
    const third = await post(headers, ocrForm(headers, 'front', blank));
    expect(third.statusCode).toBe(429);
    expect(third.json().message_client).toBe(errorTexts.attemptsExceeded);
    const state = await events(headers.transaccion);
    expect(state.transaction.attempts).toEqual({ id_frontal: 3 });
    expect(Date.parse(state.transaction.lockedUntil ?? '')).toBeGreaterThan(Date.now() + 59 * 60_000);
    // Locked: even a good image is refused, and nothing more is counted.
    expect((await post(headers, ocrForm(headers, 'front', front.image))).statusCode).toBe(429);
    expect((await events(headers.transaccion)).transaction.attempts).toEqual({ id_frontal: 3 });
  }, 60_000);

  it('refuses a back whose MRZ fails its check digits as unreadable (422, an attempt counted), never 200', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    // The front of the same Peru DNI, as its read is stored: the back must be of the card whose front was read.
    await usableFront(t, headers, demoId, {
      documentType: 'DNI_PERU',
      ocrData: { apellidoPaterno: 'QUISPE', apellidoMaterno: 'MAMANI', nombres: 'ROSA ELENA', fechaNacimiento: '09/03/1988', dni: '46027896' },
    });
    const refused = await post(headers, ocrForm(headers, 'back', badBack));
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message_client).toBe(errorTexts.idUnreadable);
    expect((await events(headers.transaccion)).transaction.attempts).toEqual({ id_reverso: 1 });
    const accepted = await post(headers, ocrForm(headers, 'back', goodBack));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().payload.ocrData.cadena).toContain('I<PER46027896');
  }, 90_000);

  it('refuses bad uploads with a 4xx, without counting an attempt or storing anything', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const text = Buffer.from('esto no es una imagen');
    expect((await post(headers, ocrForm(headers, 'front', text))).statusCode).toBe(415);
    expect((await post(headers, ocrForm(headers, 'front', Buffer.alloc(0)))).statusCode).toBe(400);
    expect((await post(headers, ocrForm(headers, 'front', front.image.subarray(0, front.image.length / 2)))).statusCode).toBe(400);
    expect((await post(headers, ocrForm(headers, 'lateral', front.image))).statusCode).toBe(400);
    expect((await post(headers, ocrForm(headers, 'front', undefined))).statusCode).toBe(400);
    expect(
      (
        await post(
          headers,
          ocrForm({ ...headers, cliente: crypto.randomUUID() }, 'front', front.image).map((p) => p),
        )
      ).statusCode,
    ).toBe(400);
    expect((await post({ ...headers, apikey: 'nope' }, ocrForm(headers, 'front', front.image))).statusCode).toBe(401);
    expect((await post({ ...headers, apikey: otherKey }, ocrForm(headers, 'front', front.image))).statusCode).toBe(403);
    const state = await events(headers.transaccion);
    expect(state.transaction.attempts).toEqual({});
    expect((state.evidence ?? []).map((e) => e.kind)).toEqual(['consentimiento']);
  }, 60_000);
});
