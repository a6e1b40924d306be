import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDocument, type DocumentFixture } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher, loadDataKey, type DataCipher } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { icaoCheckDigit } from '../src/features/identity-checks/ine-check.js';
import { addEvidence, latestEvidence } from '../src/store/evidence.js';
import { writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { acceptConsents } from './support/journey.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { multipartBody, type FormPart } from './uploads/samples.js';

type Headers = ReturnType<typeof trxHeaders>;
type Check = { outcome: string; checks: { rule: string; passed: boolean; detail: string }[]; source: string; curp?: string };

let ine: DocumentFixture;
let front: Record<string, string | boolean>;
let back: Record<string, string | boolean>;
let mrzLines: string[];

beforeAll(async () => {
  ine = await buildDocument('ine', 0, { seed: 'identity-checks', referenceDate: { y: 2026, m: 11, d: 26 } });
  front = ine.truth.ocrFront as Record<string, string | boolean>;
  back = ine.truth.ocrBack as Record<string, string | boolean>;
  mrzLines = ine.truth.mrzLines!;
}, 60_000);

/** A real HTTP server standing for an external gateway: answers from `answer`, records what it was sent. */
interface FakeGateway {
  url: string;
  received: { path: string; authorization?: string; body: Record<string, unknown> }[];
  answer: (body: Record<string, unknown>) => { status?: number; delayMs?: number; body: unknown };
  close(): Promise<void>;
}

async function startGateway(): Promise<FakeGateway> {
  const gateway: FakeGateway = {
    url: '',
    received: [],
    answer: () => ({ body: { found: true } }),
    close: async () => undefined,
  };
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((body) => {
      gateway.received.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      const { status = 200, delayMs = 0, body: reply } = gateway.answer(body);
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'application/json' }).end(typeof reply === 'string' ? reply : JSON.stringify(reply));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return gateway;
}

describe.each(engines)('Renapo and INE checks ($name)', (engine) => {
  let local: TestApp;
  let withGateway: TestApp;
  let cipher: DataCipher;
  let gatewayCipher: DataCipher;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startGateway();
    local = await startTestApp(engine);
    withGateway = await startTestApp(engine, {
      RENAPO_URL: `${gateway.url}/renapo`,
      RENAPO_TOKEN: 'secreto-renapo',
      RENAPO_TIMEOUT_MS: '400',
      INE_URL: `${gateway.url}/ine`,
    });
    cipher = createDataCipher(loadDataKey(local.config).key);
    gatewayCipher = createDataCipher(loadDataKey(withGateway.config).key);
  }, 60_000);
  afterAll(async () => {
    await local?.close();
    await withGateway?.close();
    await gateway?.close();
  });

  /** The ID reads /v2/ocr would have stored for this transaction (its evidence shape). */
  async function seedReads(t: TestApp, c: DataCipher, headers: Headers, options: { back?: boolean; frontVerdict?: string } = {}) {
    // The transaction exists once an authenticated call names it; consent comes before any capture.
    await acceptConsents(t.app, headers);
    const base = { uuidTrx: headers.transaccion, grantorId: demoId };
    await addEvidence(t.db, c, { ...base, kind: evidenceKind.idFront, payload: { verdict: { kind: options.frontVerdict ?? 'accepted' }, documentType: 'INE', ocrData: front } });
    if (options.back !== false) {
      await addEvidence(t.db, c, {
        ...base,
        kind: evidenceKind.idBack,
        payload: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: back, mrz: { format: 'TD1', lines: mrzLines, valid: true, checkDigits: {} } },
      });
    }
  }

  // As the partner's server calls them, with its secret server key (issue #15).
  const post = (t: TestApp, url: string, headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: 'Bearer demo-secret', ...headers }, payload: payload as object });

  const renapoBody = (headers: Headers, curp: string) => ({ uuid: headers.cliente, turn: -1, curp });
  const ineBody = (headers: Headers, data: Record<string, string>) => ({ uuid: headers.cliente, turn: -1, data, fingerprint: { indexLeft: null, indexRight: '' } });
  const failedRules = (check: Check) => check.checks.filter((c) => !c.passed).map((c) => c.rule);

  it('checks the CURP against the ID read and stores the renapo evidence', async () => {
    const headers = trxHeaders();
    await seedReads(local, cipher, headers);
    const res = await post(local, '/v1/renapo', headers, renapoBody(headers, ` ${String(front.curp).toLowerCase()}`));
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json().payload as Check;
    expect(check).toMatchObject({ outcome: 'passed', source: 'local', curp: front.curp });
    expect(check.checks.map((c) => c.rule)).toEqual(['estructura', 'digito_verificador', 'iniciales_nombre', 'consonantes_nombre', 'fecha_nacimiento', 'sexo', 'entidad_nacimiento']);
    const stored = await latestEvidence(local.db, cipher, headers.transaccion, evidenceKind.renapo);
    expect(stored?.payload).toMatchObject({ curp: front.curp, outcome: 'passed', source: 'local', idRead: true });
    const events = await local.app.inject({ method: 'GET', url: `/v1/transactions/${headers.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    expect((events.json().payload.evidence as { kind: string }[]).map((e) => e.kind)).toContain('renapo');
  });

  it("reports a CURP that is not the ID holder's as failed, still with a 200", async () => {
    const headers = trxHeaders();
    await seedReads(local, cipher, headers);
    const curp = String(front.curp);
    // Another valid CURP: a different birth day, with its own check digit recomputed by the rules.
    const day = curp.slice(8, 10) === '01' ? '02' : '01';
    const { curpCheckDigit } = await import('@kyc/contracts/rules');
    const first17 = curp.slice(0, 8) + day + curp.slice(10, 17);
    const other = first17 + String(curpCheckDigit(first17));
    const res = await post(local, '/v1/renapo', headers, renapoBody(headers, other));
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json().payload as Check;
    expect(check.outcome).toBe('failed');
    expect(failedRules(check)).toEqual(['fecha_nacimiento']);

    const badDigit = await post(local, '/v1/renapo', headers, renapoBody(headers, curp.slice(0, 17) + String((Number(curp[17]) + 1) % 10)));
    expect(failedRules(badDigit.json().payload as Check)).toEqual(['digito_verificador']);
    const short = await post(local, '/v1/renapo', headers, renapoBody(headers, curp.slice(0, 15)));
    expect(short.statusCode).toBe(200);
    expect(failedRules(short.json().payload as Check)).toEqual(['estructura']);
  });

  it('without a usable ID read the CURP is only checked by its own rules', async () => {
    const headers = trxHeaders();
    await seedReads(local, cipher, headers, { frontVerdict: 'rejected' });
    const res = await post(local, '/v1/renapo', headers, renapoBody(headers, String(front.curp)));
    const check = res.json().payload as Check;
    expect(check.outcome).toBe('not_checked');
    expect(check.checks.map((c) => c.rule)).toEqual(['estructura', 'digito_verificador']);
  });

  it('refuses malformed requests with a 400 and stores nothing', async () => {
    const headers = trxHeaders();
    await seedReads(local, cipher, headers);
    const cases: unknown[] = [
      {},
      { uuid: headers.cliente, turn: -1 },
      { uuid: headers.cliente, turn: 0, curp: String(front.curp) },
      { uuid: headers.cliente, turn: -1, curp: 'X'.repeat(20) },
      { uuid: headers.cliente, turn: -1, curp: '' },
      { uuid: headers.cliente, turn: -1, curp: 'HELG-900215/MDF' },
      { uuid: crypto.randomUUID(), turn: -1, curp: String(front.curp) },
    ];
    for (const body of cases) {
      const res = await post(local, '/v1/renapo', headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: expect.stringMatching(/Invalid request/) });
    }
    const ineCases: unknown[] = [
      { uuid: headers.cliente, turn: -1, data: {}, fingerprint: { indexLeft: null, indexRight: '' } },
      { uuid: headers.cliente, turn: -1, data: { cic: '1234567890' + '1234' }, fingerprint: { indexLeft: null, indexRight: '' } },
      { uuid: headers.cliente, turn: -1, data: { cic: '12345 6789' }, fingerprint: { indexLeft: null, indexRight: '' } },
      { uuid: headers.cliente, turn: -1, data: { cic: String(back.cicMRZ) } },
    ];
    for (const body of ineCases) {
      const res = await post(local, '/v1/ine', headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const wrongGrantor = await post(local, '/v1/ine', { ...headers, Otorgante: crypto.randomUUID() }, ineBody(headers, { cic: String(back.cicMRZ) }));
    expect(wrongGrantor.statusCode).toBe(400);
    const unauthorised = await post(local, '/v1/renapo', { ...headers, apikey: 'nope' }, renapoBody(headers, String(front.curp)));
    expect(unauthorised.statusCode).toBe(401);
    expect(await latestEvidence(local.db, cipher, headers.transaccion, evidenceKind.renapo)).toBeUndefined();
    expect(await latestEvidence(local.db, cipher, headers.transaccion, evidenceKind.ine)).toBeUndefined();
  });

  it('checks the INE CIC against the back MRZ, and OCR / clave / emission against the reads', async () => {
    const headers = trxHeaders();
    await seedReads(local, cipher, headers);
    const byCic = await post(local, '/v1/ine', { ...headers, Otorgante: demoId }, ineBody(headers, { cic: String(back.cicMRZ) }));
    expect(byCic.statusCode, byCic.body).toBe(200);
    expect(byCic.json().payload).toMatchObject({ outcome: 'passed', source: 'local' });

    const ocr = String(back.seccionMRZ) + String(back.ciudadanoMRZ);
    const data = { ocr, claveElector: String(front.claveElector), numeroEmisionCredencial: String(front.emision) };
    const byOcr = await post(local, '/v1/ine', headers, ineBody(headers, data));
    const passed = byOcr.json().payload as Check;
    expect(passed.outcome).toBe('passed');
    expect(passed.checks.map((c) => c.rule)).toContain('clave_elector_frente');

    const wrongEmission = String(front.emision) === '01' ? '02' : '01';
    const mismatch = await post(local, '/v1/ine', headers, ineBody(headers, { ...data, numeroEmisionCredencial: wrongEmission }));
    expect(mismatch.statusCode).toBe(200);
    expect(mismatch.json().payload.outcome).toBe('failed');
    expect(failedRules(mismatch.json().payload as Check)).toEqual(['emision_frente']);

    const stored = await latestEvidence(local.db, cipher, headers.transaccion, evidenceKind.ine);
    expect(stored?.payload).toMatchObject({ outcome: 'failed', source: 'local', data: { numeroEmisionCredencial: wrongEmission }, idRead: { front: true, back: true } });

    // Another CIC whose ICAO check digit differs from the one printed in the MRZ.
    const mrzDigit = mrzLines[0]![14];
    const other = ['123456789', '987654321', '111111111', '222222222'].find((cic) => icaoCheckDigit(cic) !== mrzDigit)!;
    const otherCic = await post(local, '/v1/ine', headers, ineBody(headers, { cic: other }));
    expect(failedRules(otherCic.json().payload as Check)).toEqual(['cic_mrz', 'cic_digito_verificador']);
  });

  it('honours ENABLE_RENAPO and ENABLE_INE: nothing checked, nothing stored, nothing sent', async () => {
    const headers = trxHeaders();
    await seedReads(withGateway, gatewayCipher, headers);
    await writeParams(withGateway, demoId, { ENABLE_RENAPO: 'FALSO', ENABLE_INE: 'false' });
    const sent = gateway.received.length;
    try {
      // The grantor parameter cache lives for 5 s; writeParams through the same process empties it.
      const renapo = await post(withGateway, '/v1/renapo', headers, renapoBody(headers, String(front.curp)));
      expect(renapo.statusCode).toBe(200);
      expect(renapo.json().payload).toEqual({ curp: front.curp, outcome: 'not_checked', checks: [], source: 'disabled' });
      const ineRes = await post(withGateway, '/v1/ine', headers, ineBody(headers, { cic: String(back.cicMRZ) }));
      expect(ineRes.json().payload).toEqual({ outcome: 'not_checked', checks: [], source: 'disabled' });
      expect(gateway.received.length).toBe(sent);
      expect(await latestEvidence(withGateway.db, gatewayCipher, headers.transaccion, evidenceKind.renapo)).toBeUndefined();
      expect(await latestEvidence(withGateway.db, gatewayCipher, headers.transaccion, evidenceKind.ine)).toBeUndefined();
    } finally {
      await writeParams(withGateway, demoId, { ENABLE_RENAPO: 'true', ENABLE_INE: 'true' });
    }
  });

  it('asks the configured RENAPO gateway over HTTP and adds its answer', async () => {
    const headers = trxHeaders();
    await seedReads(withGateway, gatewayCipher, headers);
    gateway.answer = (body) => ({
      body:
        body.curp === front.curp
          ? { found: true, curpStatus: 'AN', names: String(front.nombres), firstSurname: String(front.apellidoPaterno), secondSurname: String(front.apellidoMaterno) }
          : { found: false },
    });
    const before = gateway.received.length;
    const res = await post(withGateway, '/v1/renapo', headers, renapoBody(headers, String(front.curp)));
    const check = res.json().payload as Check;
    expect(check.outcome).toBe('passed');
    expect(check.source).toMatch(/^renapo-gateway 127\.0\.0\.1:/);
    expect(check.checks.slice(-2).map((c) => [c.rule, c.passed])).toEqual([
      ['renapo_registro', true],
      ['renapo_nombre', true],
    ]);
    expect(gateway.received.slice(before)).toEqual([{ path: '/renapo', authorization: 'Bearer secreto-renapo', body: { curp: front.curp } }]);

    gateway.answer = () => ({ body: { found: true, curpStatus: 'BD' } });
    const cancelled = await post(withGateway, '/v1/renapo', headers, renapoBody(headers, String(front.curp)));
    expect(cancelled.json().payload.outcome).toBe('failed');
    expect(failedRules(cancelled.json().payload as Check)).toEqual(['renapo_registro']);

    // A CURP that fails its own rules is never sent.
    const sent = gateway.received.length;
    await post(withGateway, '/v1/renapo', headers, renapoBody(headers, String(front.curp).slice(0, 17) + 'Z'));
    expect(gateway.received.length).toBe(sent);
  });

  it('a slow, failing or off-contract gateway never fails the call', async () => {
    const headers = trxHeaders();
    await seedReads(withGateway, gatewayCipher, headers);
    const answers = [
      { answer: () => ({ delayMs: 1500, body: { found: true } }), reason: /no answer within 400 ms/ },
      { answer: () => ({ status: 502, body: { error: 'upstream' } }), reason: /HTTP 502/ },
      { answer: () => ({ body: 'not json' }), reason: /not JSON/ },
      { answer: () => ({ body: { registered: 'yes' } }), reason: /contract/ },
    ];
    for (const { answer, reason } of answers) {
      gateway.answer = answer;
      const res = await post(withGateway, '/v1/renapo', headers, renapoBody(headers, String(front.curp)));
      expect(res.statusCode).toBe(200);
      const check = res.json().payload as Check;
      // The local rules still decide.
      expect(check).toMatchObject({ outcome: 'passed', source: 'local' });
      const stored = await latestEvidence(withGateway.db, gatewayCipher, headers.transaccion, evidenceKind.renapo);
      expect((stored!.payload as { gateway: { answered: boolean; reason: string } }).gateway).toMatchObject({ answered: false, reason: expect.stringMatching(reason) });
    }
  });

  it('asks the configured INE list service with the credential identifiers', async () => {
    const headers = trxHeaders();
    await seedReads(withGateway, gatewayCipher, headers);
    gateway.answer = (body) => ({ body: body.cic === back.cicMRZ ? { found: true, current: true } : { found: false } });
    const before = gateway.received.length;
    const res = await post(withGateway, '/v1/ine', headers, ineBody(headers, { cic: String(back.cicMRZ) }));
    const check = res.json().payload as Check;
    expect(check.outcome).toBe('passed');
    expect(check.source).toMatch(/^ine-gateway/);
    expect(check.checks.slice(-2).map((c) => c.rule)).toEqual(['lista_nominal', 'credencial_vigente']);
    expect(gateway.received.slice(before)).toEqual([{ path: '/ine', authorization: undefined, body: { cic: back.cicMRZ, identificadorCiudadano: back.ciudadanoMRZ } }]);
    gateway.answer = () => ({ body: { found: true, current: false, detail: 'credencial reemplazada' } });
    const replaced = await post(withGateway, '/v1/ine', headers, ineBody(headers, { cic: String(back.cicMRZ) }));
    expect(replaced.json().payload.outcome).toBe('failed');
    expect(failedRules(replaced.json().payload as Check)).toEqual(['credencial_vigente']);
  });
});

describe('Renapo and INE checks after real /v2/ocr reads (sqlite)', () => {
  let t: TestApp;
  let images: { front: Buffer; back: Buffer; truth: DocumentFixture['truth'] };
  beforeAll(async () => {
    t = await startTestApp(engines[0]!);
    const doc = await buildDocument('ine', 1, { seed: 'identity-checks-ocr', referenceDate: { y: 2026, m: 11, d: 26 }, expired: false });
    images = { front: doc.sides[0]!.png, back: doc.sides[1]!.png, truth: doc.truth };
  }, 60_000);
  afterAll(async () => t?.close());

  async function read(headers: Headers, side: 'front' | 'back', image: Buffer) {
    const parts: FormPart[] = [
      { name: 'uuidUser', value: headers.cliente },
      { name: 'side', value: side },
      { name: 'ine', filename: `${side}.png`, contentType: 'image/png', data: image },
    ];
    const { payload, contentType } = multipartBody(parts);
    const res = await t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...headers, 'content-type': contentType }, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().payload.ocrData as Record<string, string>;
  }

  it('the CURP and the CIC the flow sends pass against what the OCR stored', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const front = await read(headers, 'front', images.front);
    const back = await read(headers, 'back', images.back);
    const renapo = await t.app.inject({
      method: 'POST',
      url: '/v1/renapo',
      headers: { ...headers, authorization: 'Bearer demo-secret' },
      payload: { uuid: headers.cliente, turn: -1, curp: front.curp },
    });
    const renapoCheck = renapo.json().payload as Check;
    expect(
      renapoCheck.checks.filter((c) => !c.passed),
      JSON.stringify(renapoCheck),
    ).toEqual([]);
    expect(renapoCheck.outcome).toBe('passed');
    expect(renapoCheck.curp).toBe(images.truth.ocrFront.curp);
    const ine = await t.app.inject({
      method: 'POST',
      url: '/v1/ine',
      headers: { ...headers, authorization: 'Bearer demo-secret' },
      payload: { uuid: headers.cliente, turn: -1, data: { cic: back.cicMRZ }, fingerprint: { indexLeft: null, indexRight: '' } },
    });
    const ineCheck = ine.json().payload as Check;
    expect(
      ineCheck.checks.filter((c) => !c.passed),
      JSON.stringify(ineCheck),
    ).toEqual([]);
    expect(ineCheck.outcome).toBe('passed');
    expect(back.cicMRZ).toBe(images.truth.ocrBack?.cicMRZ);
  }, 60_000);
});
