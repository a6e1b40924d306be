import { errorTexts } from '@kyc/contracts';
import { degradeProof, renderProof, type ProofTruth } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey } from '../../src/crypto/data-cipher.js';
import { addEvidence, latestEvidence } from '../../src/store/evidence.js';
import { engines, startTestApp, type TestApp } from '../support/app.js';
import { demoId, trxHeaders } from '../support/fixtures.js';
import { acceptConsents, usableFront } from '../support/journey.js';
import { imageSample, multipartBody } from '../uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
/** The bills' "today" is the real one: recency is judged against the server's clock. */
const today = new Date().toISOString().slice(0, 10);
const holder = { nombres: 'NOEMÍ', apellidoPaterno: 'LÓPEZ', apellidoMaterno: 'ESPINOZA' };
const address = {
  street: 'CALLE HIDALGO',
  exteriorNumber: '59',
  interiorNumber: null,
  settlement: 'ROMA NORTE',
  postalCode: '06700',
  municipality: 'CUAUHTÉMOC',
  state: 'CIUDAD DE MÉXICO',
} as const;

interface Lectura {
  leido: boolean;
  nombreCompleto?: string;
  calle?: string;
  numeroExterior?: string;
  colonia?: string;
  codigoPostal?: string;
  fechaEmision?: string;
  coincideNombre: boolean | null;
  vigente: boolean | null;
  intentosRestantes: number;
}

describe.each(engines)('POST /v1/file reads the proof of address ($name)', (engine) => {
  let t: TestApp;
  let bill: { png: Buffer; truth: ProofTruth };

  const open = async (idHolder: typeof holder | null): Promise<Headers> => {
    const headers = trxHeaders();
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers })).statusCode).toBe(200);
    // The journey's order: consent, then an ID front (one without a name when the holder is unknown).
    await acceptConsents(t.app, headers);
    if (!idHolder) await usableFront(t, headers);
    if (idHolder) {
      // What the ID front read left behind (features/id-capture/ocr-routes.ts writes this record after a real read).
      const cipher = createDataCipher(loadDataKey(t.config).key);
      const nombreCompleto = `${idHolder.nombres} ${idHolder.apellidoPaterno} ${idHolder.apellidoMaterno}`;
      await addEvidence(t.db, cipher, { uuidTrx: headers.transaccion, grantorId: demoId, kind: 'ocr_frente', payload: { ocrData: { nombreCompleto, ...idHolder } } });
    }
    return headers;
  };
  const upload = async (headers: Headers, png: Buffer) => {
    const { payload, contentType } = multipartBody([
      { name: 'folder', value: `${demoId}/${headers.cliente}/domicilio` },
      { name: 'uuid', value: headers.cliente },
      { name: 'file', filename: 'comprobante.png', contentType: 'image/png', data: png },
    ]);
    return t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...headers, 'content-type': contentType }, payload });
  };
  const lecturaOf = (res: { json: () => unknown }) => (res.json() as { payload: { lectura: Lectura } }).payload.lectura;

  beforeAll(async () => {
    t = await startTestApp(engine);
    bill = await renderProof({ seed: 'api-1', layout: 'luz', referenceDate: today, ageDays: 20, holder, address });
  });
  afterAll(async () => t?.close());

  it('reads holder, address and issue date from a clean bill, matches the ID holder and records the reading', async () => {
    const headers = await open(holder);
    const res = await upload(headers, bill.png);
    expect(res.statusCode).toBe(200);
    const lectura = lecturaOf(res);
    expect(lectura).toMatchObject({
      leido: true,
      calle: address.street,
      numeroExterior: address.exteriorNumber,
      colonia: address.settlement,
      codigoPostal: address.postalCode,
      fechaEmision: bill.truth.issueDate,
      coincideNombre: true,
      vigente: true,
      intentosRestantes: 3,
    });
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const record = await latestEvidence(t.db, cipher, headers.transaccion, 'comprobante_lectura');
    expect(record?.blobKey).toMatch(new RegExp(`^${demoId}/${headers.cliente}/domicilio/`));
    expect(record?.payload).toMatchObject({ outcome: 'passed', read: true, nameMatchesId: true, recent: true, postalCode: '06700', maxAgeMonths: 3 });
  });

  it("says when the bill is in someone else's name, and when no ID was read", async () => {
    const other = await upload(await open({ nombres: 'JULIÁN', apellidoPaterno: 'HERNÁNDEZ', apellidoMaterno: 'IBÁÑEZ' }), bill.png);
    expect(lecturaOf(other)).toMatchObject({ leido: true, coincideNombre: false });
    const noId = await upload(await open(null), bill.png);
    expect(lecturaOf(noId)).toMatchObject({ leido: true, coincideNombre: null });
  });

  it('flags a bill older than MESES_VIGENCIA_COMPROBANTE months, and reads a degraded photo', async () => {
    const old = await renderProof({ seed: 'api-2', layout: 'telefono', referenceDate: today, ageDays: 150, holder, address });
    expect(lecturaOf(await upload(await open(holder), old.png))).toMatchObject({ leido: true, fechaEmision: old.truth.issueDate, vigente: false, coincideNombre: true });
    const degraded = await degradeProof(bill, 'combo');
    expect(lecturaOf(await upload(await open(holder), degraded.png))).toMatchObject({ leido: true, codigoPostal: '06700', coincideNombre: true });
  });

  it('stores an unreadable picture, counts it, and refuses uploads once the attempts are gone', async () => {
    const headers = await open(holder);
    const noise = await imageSample('png', 320, 240);
    const left: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await upload(headers, noise);
      expect(res.statusCode).toBe(200);
      expect(lecturaOf(res).leido).toBe(false);
      left.push(lecturaOf(res).intentosRestantes);
    }
    expect(left).toEqual([2, 1, 0]);
    const refused = await upload(headers, bill.png);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message_client: errorTexts.attemptsExceeded });
  });
});
