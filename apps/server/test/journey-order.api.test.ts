import { readdirSync } from 'node:fs';
import path from 'node:path';
import { journeyOrderTexts } from '@kyc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { addEvidence } from '../src/store/evidence.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents, recordFaceDecision } from './support/journey.js';
import { imageSample, multipartBody, videoSamples, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
type Step = keyof typeof journeyOrderTexts;

let png: Buffer;
let webm: Buffer;
beforeAll(async () => {
  png = await imageSample('png');
  webm = videoSamples().webm;
});

/** Every file the service wrote under its data folder, but the database's own files. */
function storedFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.(db|sqlite)(-wal|-shm|-journal)?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

describe.each(engines)('the journey order, held by the server ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  }, 60_000);
  afterAll(async () => t?.close());

  type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;
  const multipart = (url: string, headers: Headers, parts: FormPart[]): Promise<Reply> => {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  };
  const json = (url: string, headers: Headers, payload: object): Promise<Reply> => t.app.inject({ method: 'POST', url, headers, payload });
  // Calls that answer the person's data also need a read credential (docs/decisions.md "Credentials per call"): with
  // it, what refuses them here is the journey's order.
  const withSecret = (h: Headers): Headers => ({ ...h, authorization: 'Bearer demo-secret' });
  const image = (name: string) => ({ name, filename: 'captura.png', contentType: 'image/png', data: png });
  const video = (name: string) => ({ name, filename: 'video.webm', contentType: 'video/webm', data: webm });
  const text = (fields: Record<string, string>) => Object.entries(fields).map(([name, value]) => ({ name, value }));

  /** Every capture and document call, with a body that would otherwise be accepted. */
  const calls: Record<string, (h: Headers) => Promise<Reply>> = {
    'POST /v2/ocr front': (h) => multipart('/v2/ocr', h, [...text({ uuidUser: h.cliente, side: 'front' }), image('ine')]),
    'POST /v2/ocr back': (h) => multipart('/v2/ocr', h, [...text({ uuidUser: h.cliente, side: 'back' }), image('ine')]),
    'POST /v1/id_calibrate': (h) => multipart('/v1/id_calibrate', h, [video('ine')]),
    'POST /v1/renapo': (h) => json('/v1/renapo', withSecret(h), { uuid: h.cliente, turn: -1, curp: 'GOMA850315MDFRRR09' }),
    'POST /v1/ine': (h) => json('/v1/ine', withSecret(h), { uuid: h.cliente, turn: -1, data: { cic: '123456789' }, fingerprint: { indexLeft: null, indexRight: '' } }),
    'POST /v1/file': (h) => multipart('/v1/file', h, [...text({ uuid: h.cliente, folder: `${demoId}/${h.cliente}/comprobante` }), image('file')]),
    'POST /v1/otp': (h) => multipart('/v1/otp', h, [...text({ uuid: h.cliente }), image('file')]),
    'POST /v1/videotoken/code': (h) => json('/v1/videotoken/code', h, { uuid: h.cliente }),
    'POST /v2/videotoken': (h) =>
      multipart('/v2/videotoken', h, [...text({ uuidUser: h.cliente, created: String(Date.now()), expire: String(Date.now() + 60_000), service_call: 'videotoken-embedding' }), video('videotoken')]),
    'POST /v1/proccessdocuments': (h) => json('/v1/proccessdocuments', withSecret(h), { uuidUser: h.cliente }),
    'POST /v1/nom_151': (h) => json('/v1/nom_151', withSecret(h), { uuidUser: h.cliente, custom_uuid: 'x', tipo_envio: 'COMPLETO', semaforo: 'green' }),
    'POST /v1/async_zip_nom_151_correo': (h) =>
      json('/v1/async_zip_nom_151_correo', withSecret(h), { uuidUser: h.cliente, custom_uuid: 'x', tipo_envio: 'COMPLETO', semaforo: 'green', name: 'Ana', email: 'ana@correo.example' }),
  };

  /** What a transaction has stored, row by row, and the files under the data folder. */
  async function stored(uuidTrx: string) {
    const count = async (table: 'transactions' | 'evidence' | 'transaction_attempts' | 'audit_events' | 'lifecycle_events' | 'video_token_codes') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('uuid_trx', '=', uuidTrx)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      transactions: await count('transactions'),
      evidence: await count('evidence'),
      attempts: await count('transaction_attempts'),
      audit: await count('audit_events'),
      lifecycle: await count('lifecycle_events'),
      codes: await count('video_token_codes'),
      files: storedFiles(t.dataDir),
    };
  }

  async function expectRefused(name: string, headers: Headers, due: Step) {
    const before = await stored(headers.transaccion);
    const res = await calls[name]!(headers);
    expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
    expect(res.json(), name).toMatchObject({ status: 409, message_client: journeyOrderTexts[due] });
    expect(res.json().message, name).toContain(`'${due}'`);
    expect(await stored(headers.transaccion), `${name} stored something`).toEqual(before);
  }

  const usableFront = async (h: Headers) =>
    addEvidence(t.db, createDataCipher(loadDataKey(t.config).key), {
      uuidTrx: h.transaccion,
      grantorId: demoId,
      kind: evidenceKind.idFront,
      payload: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: {} },
    });

  it('refuses every capture and document call of a fresh transaction, creating nothing', async () => {
    const headers = trxHeaders();
    for (const name of Object.keys(calls)) {
      const result = /proccessdocuments|nom_151|async_zip/.test(name);
      await expectRefused(name, headers, result ? 'faceVideo' : 'terminos');
    }
    expect((await stored(headers.transaccion)).transactions).toBe(0);
  });

  it('asks for the ID front before its back, the proof and the face video', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, ['terminos', 'clausula', 'autorizacion']);
    for (const name of ['POST /v2/ocr back', 'POST /v1/file', 'POST /v1/otp', 'POST /v1/videotoken/code', 'POST /v2/videotoken']) {
      await expectRefused(name, headers, 'idFront');
    }
    // A refused read is recorded, but it is not the ID step.
    await addEvidence(t.db, createDataCipher(loadDataKey(t.config).key), {
      uuidTrx: headers.transaccion,
      grantorId: demoId,
      kind: evidenceKind.idFront,
      payload: { verdict: { kind: 'rejected', reason: 'not_a_document' } },
    });
    await expectRefused('POST /v1/file', headers, 'idFront');
  });

  it('asks for the clause and the authorization before the face video, in that order', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, ['terminos']);
    await usableFront(headers);
    for (const name of ['POST /v1/otp', 'POST /v1/videotoken/code', 'POST /v2/videotoken']) await expectRefused(name, headers, 'clausula');
    await acceptConsents(t.app, headers, ['clausula']);
    for (const name of ['POST /v1/otp', 'POST /v1/videotoken/code', 'POST /v2/videotoken']) await expectRefused(name, headers, 'autorizacion');
    await acceptConsents(t.app, headers, ['autorizacion']);
    const code = await calls['POST /v1/videotoken/code']!(headers);
    expect(code.statusCode, code.body).toBe(200);
    for (const name of ['POST /v1/proccessdocuments', 'POST /v1/nom_151', 'POST /v1/async_zip_nom_151_correo']) await expectRefused(name, headers, 'faceVideo');
    await recordFaceDecision(t, { uuidTrx: headers.transaccion, grantorId: demoId });
    const documents = await calls['POST /v1/proccessdocuments']!(headers);
    expect(documents.statusCode, documents.body).toBe(200);
  });

  it('a cancelled transaction accepts no capture: Back or a replayed call cannot resume it', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers, ['terminos', 'clausula', 'autorizacion']);
    await usableFront(headers);
    expect((await calls['POST /v1/videotoken/code']!(headers)).statusCode).toBe(200);
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/v1/update_cycle',
      headers,
      payload: lifecycleEvent(headers, { step: 'video_token', event: JSON.stringify({ status: 'INCOMPLETED', step: 'video_token', description: 'Cancelado' }) }),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    for (const name of Object.keys(calls).filter((n) => !/proccessdocuments|nom_151|async_zip/.test(n))) {
      const before = await stored(headers.transaccion);
      const res = await calls[name]!(headers);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
      expect(res.json(), name).toMatchObject({ message_client: journeyOrderTexts.cancelled, message: expect.stringMatching(/cancelled/) });
      expect(await stored(headers.transaccion), `${name} stored something`).toEqual(before);
    }
    // The result e-mail is refused too (it checks the transaction is open itself).
    await recordFaceDecision(t, { uuidTrx: headers.transaccion, grantorId: demoId });
    expect((await calls['POST /v1/async_zip_nom_151_correo']!(headers)).statusCode).toBe(409);
  });

  it("an acceptance without the text's version and SHA-256 is not a consent", async () => {
    const headers = trxHeaders();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/celd_events',
      headers,
      payload: { uuid_clt: headers.cliente, uuid_trx: headers.transaccion, uuid_oto: demoId, paso: 'terminos', tipo: 'Aceptación', dato: 'sí', finished: false, time_stamp: new Date().toISOString() },
    });
    expect(res.statusCode).toBe(200);
    await expectRefused('POST /v2/ocr front', headers, 'terminos');
  });

  it('leaves out the consents the grantor switched off', async () => {
    await writeParams(t, demoId, { REQ_ACEPTACION_DE_DATOS: 'FALSO', ENABLE_CONSENTIMIENTO_2: 'false' });
    try {
      const headers = trxHeaders();
      // No consent 1: the CURP check runs at once (it needs nothing but the consent).
      const check = await calls['POST /v1/renapo']!(headers);
      expect(check.statusCode, check.body).toBe(200);
      await usableFront(headers);
      await expectRefused('POST /v1/videotoken/code', headers, 'autorizacion');
      await acceptConsents(t.app, headers, ['autorizacion']);
      expect((await calls['POST /v1/videotoken/code']!(headers)).statusCode).toBe(200);
    } finally {
      await writeParams(t, demoId, { REQ_ACEPTACION_DE_DATOS: 'VERDADERO', ENABLE_CONSENTIMIENTO_2: 'true' });
    }
  });
});
