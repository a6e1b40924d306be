// POST /v2/ocr back side: a back that is not the back of the card whose front was read is refused (422, the
// spec's back text), spends one attempt of INTENTOS_ID_REVERSO and is never stored as the back (docs/flow.md §4).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorTexts } from '@kyc/contracts';
import { generateFixtureSet } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';
import { multipartBody, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
let dir: string;
const images: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'same-card-'));
  // Two people's INE (model G/H) and a Peru DNI.
  await generateFixtureSet({ outDir: dir, seed: 21, count: 2, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26', ineModel: 'g-h' });
  await generateFixtureSet({ outDir: dir, seed: 21, count: 1, kinds: ['dni-peru'], degradations: [], referenceDate: '2026-11-26' });
  for (const id of ['ine-000-front-clean', 'ine-000-back-clean', 'ine-001-back-clean', 'dni-peru-000-back-clean']) {
    images[id] = await readFile(path.join(dir, `${id}.png`));
  }
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function ocrForm(headers: Headers, side: string, image: Buffer): FormPart[] {
  const text = { uuidUser: headers.cliente, side, bucket: 'identificaciones', originOS: 'android', SERVICE_ROTATE_IMAGE: 'true' };
  return [...Object.entries(text).map(([name, value]) => ({ name, value })), { name: 'ine', filename: `${side}.png`, contentType: 'image/png', data: image }];
}

describe.each(engines)('POST /v2/ocr: front and back are one card ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => t?.close());

  async function post(headers: Headers, side: string, image: Buffer) {
    const { payload, contentType } = multipartBody(ocrForm(headers, side, image));
    return t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...headers, 'content-type': contentType }, payload });
  }

  async function state(uuidTrx: string) {
    const res = await t.app.inject({ method: 'GET', url: `/v1/transactions/${uuidTrx}/events`, headers: { authorization: 'Bearer demo-secret' } });
    return res.json().payload as { transaction: { attempts: Record<string, number> }; evidence?: Array<{ kind: string }> };
  }

  /** A transaction with consent recorded and the front of person 000's card read. */
  async function withFront(): Promise<Headers> {
    const headers = trxHeaders();
    const consent = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) });
    expect(consent.statusCode, consent.body).toBe(200);
    await acceptConsents(t.app, headers, ['terminos']);
    const front = await post(headers, 'front', images['ine-000-front-clean']!);
    expect(front.statusCode, front.body).toBe(200);
    return headers;
  }

  async function expectRefusedBack(headers: Headers, image: Buffer) {
    const refused = await post(headers, 'back', image);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().message_client).toBe(errorTexts.idBackFailed);
    const after = await state(headers.transaccion);
    expect(after.transaction.attempts).toEqual({ id_reverso: 1 });
    const kinds = (after.evidence ?? []).map((e) => e.kind);
    // Nothing is stored as the back; the refused image is kept apart as evidence of the attempt.
    expect(kinds).not.toContain('ocr_reverso');
    expect(kinds).toContain('ocr_reverso_rechazado');
  }

  it('refuses the front shown again as the back, then accepts the real back', async () => {
    const headers = await withFront();
    await expectRefusedBack(headers, images['ine-000-front-clean']!);
    const back = await post(headers, 'back', images['ine-000-back-clean']!);
    expect(back.statusCode, back.body).toBe(200);
    expect((await state(headers.transaccion)).evidence?.map((e) => e.kind)).toContain('ocr_reverso');
  }, 120_000);

  it("refuses another person's back", async () => {
    const headers = await withFront();
    await expectRefusedBack(headers, images['ine-001-back-clean']!);
  }, 120_000);

  it('refuses the back of another document type (a Peru DNI after an INE front)', async () => {
    const headers = await withFront();
    await expectRefusedBack(headers, images['dni-peru-000-back-clean']!);
  }, 120_000);
});
