import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorTexts } from '@kyc/contracts';
import { generateFixtureSet, stripAccentsKeepEnye, type GroundTruth } from '@kyc/fixtures';
import { SignJWT } from 'jose';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../src/blob/index.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { evidenceKind, type ProofReading, type VideoTokenDecision } from '../src/domain/evidence-kinds.js';
import { resultLinkContext } from '../src/features/results/routes.js';
import { claimJob, enqueueJob, jobState } from '../src/jobs/queue.js';
import { listOutbox } from '../src/mail/mailer.js';
import { issueResultLink, signLinkToken, verifyResultLink } from '../src/features/results/links.js';
import { addEvidence, listEvidenceWithPayload } from '../src/store/evidence.js';
import { insertGrantor, writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { auditEvent, demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { acceptConsents, recordFaceDecision } from './support/journey.js';
import { emlAttachments, pdfText, unzip, waitFor } from './results/support.js';

/** The report reads as a document: Spanish labels, no wire or storage names, no English, no configuration hints. */
function expectReadableReport(text: string): void {
  const rawNames = [
    '_acepted',
    'nombreCompleto',
    'INCOMPLETED',
    'preparacion_comprobante',
    'Otro dato',
    'rostro_coincidencia',
    'prueba_de_vida',
    'ocr_frente',
    'video_token',
    'data_user',
    'rostro_identificacion',
    'GREEN',
    'YELLOW',
  ];
  const english = /\b(the|is|not|no Spanish|configured|server|model|engine|check digits?|failed|passed)\b/;
  for (const raw of rawNames) expect(text, raw).not.toContain(raw);
  expect(text).not.toMatch(english);
  expect(text).not.toMatch(/ASR_|MODEL_DIR|[A-Z]+_[A-Z]+=/);
}
import { multipartBody, type FormPart } from './uploads/samples.js';
import { AppCaches } from '../src/caches.js';

type Headers = ReturnType<typeof trxHeaders>;
/** The partner's server reads results with its secret server key (issue #15); the browser's token is tested in credentials.api.test.ts. */
const read = (h: Headers) => ({ ...h, authorization: 'Bearer demo-secret' });
const cipherOf = (t: { config: Parameters<typeof loadDataKey>[0] }) => createDataCipher(loadDataKey(t.config).key);
let fixtures: string;
let front: { truth: GroundTruth; image: Buffer };
let back: { truth: GroundTruth; image: Buffer };

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'results-'));
  await generateFixtureSet({ outDir: fixtures, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
  const load = async (id: string) => ({
    truth: JSON.parse(await readFile(path.join(fixtures, `${id}.json`), 'utf8')) as GroundTruth,
    image: await readFile(path.join(fixtures, `${id}.png`)),
  });
  front = await load('ine-000-front-clean');
  back = await load('ine-000-back-clean');
}, 60_000);

afterAll(async () => {
  if (fixtures) await rm(fixtures, { recursive: true, force: true });
});

const matchingFace: VideoTokenDecision = {
  match: true,
  faceScore: 0.81,
  threshold: 0.6,
  liveness: { passed: true, spoof: false, signals: { mouthMovement: 0.4 } },
  spokenCode: { verified: null, engine: 'none', detail: 'no Spanish speech model is installed' },
  service_call: 'videotoken-embedding',
};
const readProof: ProofReading = { outcome: 'passed', holderName: 'X', postalCode: '06700', nameMatchesId: true, recent: true };

describe.each(engines)('results ($name)', (engine) => {
  let t: TestApp;
  const otherKey = generateApiKey();
  /** One transaction taken through real ID reads, with the face/CURP/INE/proof evidence other capabilities write. */
  let full: Headers;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { jobs: { pollMs: 100, backoffMs: 50 } });
    await insertGrantor(t, { id: crypto.randomUUID(), name: 'Crédito Norte', apiKey: otherKey });
    await writeParams(t, demoId, { PARTNER: 'Socio Demo', NOMBRE_CORTO: 'Demo' });
    full = trxHeaders();
    await acceptConsents(t.app, full);
    for (const [side, image] of [
      ['front', front.image],
      ['back', back.image],
    ] as const) {
      const parts: FormPart[] = [
        { name: 'uuidUser', value: full.cliente },
        { name: 'side', value: side },
        { name: 'ine', filename: `${side}.png`, contentType: 'image/png', data: image },
      ];
      const { payload, contentType } = multipartBody(parts);
      const res = await t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...full, 'content-type': contentType }, payload });
      expect(res.statusCode, res.body).toBe(200);
    }
  }, 120_000);
  afterAll(async () => t?.close());

  const score = (h: Headers) => t.app.inject({ method: 'GET', url: `/v1/query_score/${h.cliente}/${h.transaccion}?isDesktop=true&generate=true`, headers: read(h) });
  const base = (h: Headers) => ({ uuidTrx: h.transaccion, grantorId: demoId });
  const add = (h: Headers, kind: string, payload: unknown) => addEvidence(t.db, cipherOf(t), { ...base(h), kind, payload });

  async function decide(h: Headers) {
    await add(h, evidenceKind.renapo, { curp: front.truth.ocrFront?.curp, outcome: 'passed', checks: [], source: 'local' });
    await add(h, evidenceKind.ine, { outcome: 'passed', checks: [], source: 'local' });
    await add(h, evidenceKind.videoToken, matchingFace);
    await add(h, evidenceKind.proofReading, readProof);
  }

  it('scores RED until decided, then GREEN, YELLOW without a readable proof, with explained Fields', async () => {
    const empty = trxHeaders();
    const none = await score(empty);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().payload.flag).toBe('RED');

    const read = (await score(full)).json().payload;
    expect(read.flag).toBe('RED');
    const fields = read.Fields as { rule: string; passed: boolean; detail: string }[];
    expect(fields.find((f) => f.rule === 'identificacion_frente')?.passed).toBe(true);
    expect(fields.find((f) => f.rule === 'identificacion_reverso')?.passed).toBe(true);
    expect(fields.find((f) => f.rule === 'mrz_digitos_verificadores')?.passed).toBe(true);
    expect(fields.find((f) => f.rule === 'rostro_coincidencia')).toMatchObject({ passed: false });

    await decide(full);
    const green = (await score(full)).json().payload;
    expect(green.Fields.filter((f: { passed: boolean; detail: string }) => !f.passed && /\[(ROJO|AMARILLO)\]/.test(f.detail))).toEqual([]);
    expect(green.flag).toBe('GREEN');

    await add(full, evidenceKind.proofReading, { ...readProof, outcome: 'not_checked', nameMatchesId: null, recent: null });
    expect((await score(full)).json().payload.flag).toBe('YELLOW');
    await add(full, evidenceKind.proofReading, readProof);
    expect((await score(full)).json().payload.flag).toBe('GREEN');
  }, 60_000);

  it('refuses a score for ids other than the headers, or another grantor', async () => {
    const h = trxHeaders();
    const wrong = await t.app.inject({ method: 'GET', url: `/v1/query_score/${crypto.randomUUID()}/${h.transaccion}`, headers: read(h) });
    expect(wrong.statusCode).toBe(400);
    expect((await score({ ...full, apikey: otherKey })).statusCode).toBe(403);
    expect((await score({ ...full, apikey: 'nope' })).statusCode).toBe(401);
  });

  it('generates the three PDFs with the user name, stored encrypted, downloadable once through their links', async () => {
    // What the flow records along the way: consents as data_user entries and acceptance audit events.
    await add(full, evidenceKind.userData, [
      { description: 'terms_acepted', value: 'true' },
      { description: 'req_elec_acepted', value: 'true' },
      { description: 'request_report_acepted', value: 'true' },
    ]);
    const acceptance = JSON.stringify({ version: '2024-01', sha256: 'a'.repeat(64), userAgent: 'Mozilla/5.0' });
    const audit = await t.app.inject({ method: 'POST', url: '/v1/celd_events', headers: full, payload: auditEvent(full, { paso: 'terminos', tipo: 'Aceptación', dato: acceptance }) });
    expect(audit.statusCode, audit.body).toBe(200);
    // The flow's progress events name fields and statuses by their wire names; the report's log spells them out.
    for (const [step, status, description] of [
      ['resultados_identificacion', 'OK', 'Datos escritos por la persona: vigencia, nombreCompleto'],
      // (A cancellation, status INCOMPLETED, would close the transaction: its label is checked in documents-text.unit.test.)
      ['preparacion_comprobante', 'FAIL', 'Comprobante no legible'],
    ]) {
      const event = lifecycleEvent(full, { step, event: JSON.stringify({ status, step, description }) });
      const cycle = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: full, payload: event });
      expect(cycle.statusCode, cycle.body).toBe(200);
    }
    const res = await t.app.inject({ method: 'POST', url: '/v1/proccessdocuments', headers: read(full), payload: { uuidUser: full.cliente } });
    expect(res.statusCode, res.body).toBe(200);
    const links = res.json().payload.links as Record<string, string>;
    expect(Object.keys(links).sort()).toEqual(['autorizacion', 'clausula', 'reporte']);
    const name = front.truth.ocrFront?.nombreCompleto as string;

    const docs = await listEvidenceWithPayload(t.db, cipherOf(t), full.transaccion, evidenceKind.document);
    expect(docs.map((d) => (d.payload as { name: string }).name).sort()).toEqual(['autorizacion', 'clausula', 'reporte']);
    for (const [doc, url] of Object.entries(links)) {
      const download = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
      expect(download.statusCode, download.body).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toContain(`pdf_${doc}.pdf`);
      const text = await pdfText(download.rawPayload);
      // The generator's older card prints accents the reader may drop: the name is compared letter for letter.
      expect(stripAccentsKeepEnye(text)).toContain(stripAccentsKeepEnye(name));
      const stored = docs.find((d) => (d.payload as { name: string }).name === doc)!;
      expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(stored.sha256);
      expectReadableReport(text);
      if (doc === 'reporte') {
        expect(text).toContain('VERDE');
        expect(text).toContain('Datos escritos por la persona: Vigencia, Nombre completo');
        expect(text).toContain('no exitoso - Comprobante no legible');
        expect(text).toContain('Coincidencia del rostro');
        expectReadableReport(text);
        const frontRecord = (await listEvidenceWithPayload(t.db, cipherOf(t), full.transaccion, evidenceKind.idFront)).at(-1)!;
        expect(text).toContain(frontRecord.sha256!.slice(0, 20));
        const pdf = await PDFDocument.load(download.rawPayload);
        expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
      }
      // One consultation only.
      const replay = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
      expect(replay.statusCode).toBe(410);
      expect(replay.json().message).toMatch(/already consulted/);
    }
    // Blobs are encrypted at rest: no PDF header in the stored file.
    const raw = await (t.s3 ? t.s3.raw.get(docs[0]!.blobKey!) : readFile(path.join(t.dataDir, 'blobs', docs[0]!.blobKey!))).catch(() => undefined);
    if (engine.name === 'sqlite') expect(raw?.subarray(0, 4).toString()).toBe('KYCB');
  }, 60_000);

  it('issues document links that wait for the face re-verification when the face match is not recent', async () => {
    const h = trxHeaders();
    await t.app.inject({ method: 'GET', url: '/v1/params', headers: h });
    await add(h, evidenceKind.idFront, { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: { nombreCompleto: 'LUIS ÁNGEL PÉREZ OCHOA' }, warnings: [] });
    await addEvidence(t.db, cipherOf(t), { ...base(h), kind: evidenceKind.videoToken, payload: matchingFace }, new Date(Date.now() - 3_600_000));
    const res = await t.app.inject({ method: 'POST', url: '/v1/proccessdocuments', headers: read(h), payload: { uuidUser: h.cliente } });
    expect(res.statusCode, res.body).toBe(200);
    const report = new URL((res.json().payload.links as Record<string, string>).reporte!).pathname;
    expect((await t.app.inject({ method: 'GET', url: report })).statusCode).toBe(403);
  });

  it('allows a result link only after the face re-verification, once, and refuses tampered and expired links', async () => {
    const ctx = resultLinkContext({ config: t.config, db: t.db, caches: new AppCaches() });
    const subject = { uuidTrx: full.transaccion, uuidUser: full.cliente, grantorId: demoId };
    const issued = await issueResultLink(ctx, { ...subject, document: 'autorizacion', expiresAt: new Date(Date.now() + 3_600_000) });
    const url = new URL(issued.pdfTokenUrl);
    expect(url.pathname).toBe('/pdf_token');
    expect(Object.fromEntries(url.searchParams)).toEqual({ uuid: full.cliente, idOtorgante: demoId, fecha: String(issued.fecha), uuidTrx: full.transaccion, token: issued.credential });

    const token = await signLinkToken(ctx, { ...subject, linkId: issued.linkId, document: 'autorizacion', fecha: issued.fecha });
    const early = await t.app.inject({ method: 'GET', url: `/v1/enlace/${token}` });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/face re-verification/);

    const [head, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${flipped}` })).statusCode).toBe(400);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const otherDoc = Buffer.from(JSON.stringify({ ...claims, doc: 'reporte' })).toString('base64url');
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${head}.${otherDoc}.${signature}` })).statusCode).toBe(400);
    const foreign = await new SignJWT({ trx: subject.uuidTrx, oto: demoId, doc: 'autorizacion' })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti(issued.linkId)
      .setSubject(subject.uuidUser)
      .setIssuer('kyc-onboarding')
      .setAudience('enlace')
      .setExpirationTime(Math.floor(issued.fecha / 1000))
      .sign(randomBytes(32));
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${foreign}` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/v1/enlace/not-a-token-at-all' })).statusCode).toBe(400);

    const verified = await verifyResultLink(ctx, { uuidUser: full.cliente, uuidTrx: full.transaccion });
    expect(verified.linkId).toBe(issued.linkId);
    const first = await t.app.inject({ method: 'GET', url: new URL(verified.documentLink).pathname });
    expect(first.statusCode, first.body).toBe(200);
    expect((await pdfText(first.rawPayload)).length).toBeGreaterThan(100);
    expect((await t.app.inject({ method: 'GET', url: new URL(verified.documentLink).pathname })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${token}` })).statusCode).toBe(410);
    await expect(verifyResultLink(ctx, { uuidUser: full.cliente, uuidTrx: full.transaccion, linkId: issued.linkId })).rejects.toMatchObject({ refusal: { reason: 'link_consumed' } });

    // Expired: the signed expiry, and the stored one.
    const expired = await signLinkToken(ctx, { ...subject, linkId: issued.linkId, document: 'autorizacion', fecha: Date.now() - 1000 });
    const late = await t.app.inject({ method: 'GET', url: `/v1/enlace/${expired}` });
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toMatch(/expired/);
    const short = await issueResultLink(ctx, { ...subject, document: 'reporte', expiresAt: new Date(Date.now() + 300), verified: true });
    const shortToken = await signLinkToken(ctx, { ...subject, linkId: short.linkId, document: 'reporte', fecha: short.fecha });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${shortToken}` })).statusCode).toBe(410);
  }, 30_000);

  it('queues the result e-mail, which lands in the outbox with the report attached', async () => {
    const body = {
      tipo_envio: 'COMPLETO',
      semaforo: 'green',
      uuidUser: full.cliente,
      name: front.truth.ocrFront?.nombreCompleto,
      email: 'cliente@correo.example',
      custom_uuid: 'Socio_DemoDemo26112026abc',
      originOS: 'android',
    };
    const bad = await t.app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(full), payload: { ...body, semaforo: 'yellow' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(full), payload: { ...body, email: 'no' } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(full), payload: { ...body, uuidUser: crypto.randomUUID() } })).statusCode).toBe(400);

    const res = await t.app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(full), payload: body });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId } = res.json().payload as { jobId: string };
    const mail = await waitFor(async () => (await listOutbox(t.dataDir, cipherOf(t))).find((m) => m.file.endsWith(`${jobId}.eml.sealed`)));
    expect(mail.eml).toContain('To: cliente@correo.example');
    expect(mail.eml).toMatch(/pdf_token\?uuid=/);
    const [attachment] = emlAttachments(mail.eml);
    expect(attachment?.contentType).toBe('application/pdf');
    expect(attachment?.filename).toMatch(/^reporte_Socio_DemoDemo\d{8}[0-9a-f]{8}\.pdf$/);
    expect(stripAccentsKeepEnye(await pdfText(attachment!.content))).toContain(stripAccentsKeepEnye(front.truth.ocrFront?.nombreCompleto as string));
    expect((await jobState(t.db, jobId))?.state).toBe('done');

    // The data the user confirmed is kept as data_user evidence, for the documents generated later.
    const dataUser = [
      { description: 'nombreCompleto', value: String(front.truth.ocrFront?.nombreCompleto) },
      { description: 'colonia', value: 'Roma Norte' },
    ];
    const again = await t.app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(full), payload: { ...body, data_user: dataUser } });
    expect(again.statusCode, again.body).toBe(200);
    const saved = await listEvidenceWithPayload(t.db, cipherOf(t), full.transaccion, 'data_user');
    expect(saved.at(-1)?.payload).toEqual(dataUser);
  }, 60_000);

  it('builds the evidence bundle only with SEND_ZIP_SEMAFORO, with matching manifest hashes and a labelled local time-stamp', async () => {
    const body = { uuidUser: full.cliente, custom_uuid: 'x', tipo_envio: 'COMPLETO', semaforo: 'green', email: 'cliente@correo.example' };
    const off = await t.app.inject({ method: 'POST', url: '/v1/nom_151', headers: read(full), payload: body });
    expect(off.statusCode).toBe(403);
    expect(off.json().message_client).toBeTruthy();
    await writeParams(t, demoId, { SEND_ZIP_SEMAFORO: 'true' });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nom_151', headers: read(full), payload: body });
      expect(res.statusCode, res.body).toBe(200);
      const payload = res.json().payload;
      expect(payload.timestamp).toMatchObject({ kind: 'rfc3161', source: 'local' });
      expect(payload.custom_uuid).toMatch(/^Socio_DemoDemo\d{8}/);
      const [record] = await listEvidenceWithPayload(t.db, cipherOf(t), full.transaccion, 'paquete_nom151');
      const blobs = createBlobStore(t.config, cipherOf(t));
      const zip = await unzip((await blobs.get(record!.blobKey!)).buffer);
      const manifestBytes = zip.get('manifest.json')!;
      const manifest = JSON.parse(manifestBytes.toString()) as { files: { path: string; sha256: string }[] };
      expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['documentos/reporte.pdf', 'documentos/clausula.pdf', 'evidencias/registros.json']));
      expect(manifest.files.some((f) => f.path.includes('ocr_frente'))).toBe(true);
      for (const file of manifest.files) {
        expect(createHash('sha256').update(zip.get(file.path)!).digest('hex'), file.path).toBe(file.sha256);
      }
      const stamp = JSON.parse(zip.get('sello_de_tiempo.json')!.toString());
      expect(stamp).toMatchObject({ kind: 'rfc3161', source: 'local' });
      expect(stamp.notice).toMatch(/NO es una constancia NOM-151/);
      expect(zip.get('LEEME.txt')?.toString()).toMatch(/NO proviene de un prestador/);
      // The token is a real RFC 3161 reply: OpenSSL verifies it against the manifest and the local certificate.
      const dir = await mkdtemp(path.join(os.tmpdir(), 'bundle-'));
      try {
        for (const name of ['manifest.json', 'manifest.json.tsr', 'tsa_local.crt']) await writeFile(path.join(dir, name), zip.get(name)!);
        const out = execFileSync('openssl', ['ts', '-verify', '-data', 'manifest.json', '-in', 'manifest.json.tsr', '-CAfile', 'tsa_local.crt'], {
          cwd: dir,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        expect(out).toContain('Verification: OK');
        await writeFile(path.join(dir, 'manifest.json'), Buffer.concat([manifestBytes, Buffer.from(' ')]));
        expect(() => execFileSync('openssl', ['ts', '-verify', '-data', 'manifest.json', '-in', 'manifest.json.tsr', '-CAfile', 'tsa_local.crt'], { cwd: dir, stdio: 'pipe' })).toThrow();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      expect(payload.manifestSha256).toBe(createHash('sha256').update(manifestBytes).digest('hex'));
    } finally {
      await writeParams(t, demoId, { SEND_ZIP_SEMAFORO: 'false' });
    }
  }, 60_000);

  it('never re-opens a finished transaction, and honours the lock after a failed finalisation', async () => {
    const h = trxHeaders();
    // Every step before the result is recorded, so what refuses below is the finish and the lock.
    await acceptConsents(t.app, h);
    await recordFaceDecision(t, base(h));
    const cycle = (event: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: h, payload: lifecycleEvent(h, event) });
    expect((await cycle({})).statusCode).toBe(200);
    const finished = await cycle({ step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
    expect(finished.statusCode).toBe(200);
    const after = await cycle({ step: 'terminos' });
    expect(after.statusCode).toBe(409);
    expect((await cycle({ step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished' }) })).statusCode).toBe(409);
    const email = await t.app.inject({
      method: 'POST',
      url: '/v1/async_zip_nom_151_correo',
      headers: read(h),
      payload: { tipo_envio: 'SEMAFORO', semaforo: 'red', uuidUser: h.cliente, name: 'X', email: 'a@b.example', custom_uuid: 'x' },
    });
    expect(email.statusCode).toBe(409);
    const reopen = multipartBody([
      { name: 'uuidUser', value: h.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'f.png', contentType: 'image/png', data: front.image },
    ]);
    const capture = await t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...h, 'content-type': reopen.contentType }, payload: reopen.payload });
    expect(capture.statusCode).toBe(409);

    const locked = trxHeaders();
    await acceptConsents(t.app, locked);
    await recordFaceDecision(t, base(locked));
    const fail = await t.app.inject({
      method: 'POST',
      url: '/v1/update_cycle',
      headers: locked,
      payload: lifecycleEvent(locked, { step: 'video_token', event: JSON.stringify({ status: 'FAIL', step: 'video_token', description: errorTexts.processFailure }) }),
    });
    expect(fail.statusCode).toBe(200);
    const events = (await t.app.inject({ method: 'GET', url: `/v1/transactions/${locked.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } })).json().payload;
    expect(Date.parse(events.transaction.lockedUntil)).toBeGreaterThan(Date.now() + 59 * 60_000);
    const lockedScore = (await score(locked)).json().payload;
    expect(lockedScore.Fields.find((f: { rule: string }) => f.rule === 'intentos')).toMatchObject({ passed: false });
    const lockedMail = await t.app.inject({
      method: 'POST',
      url: '/v1/async_zip_nom_151_correo',
      headers: read(locked),
      payload: { tipo_envio: 'SEMAFORO', semaforo: 'red', uuidUser: locked.cliente, name: 'X', email: 'a@b.example', custom_uuid: 'x' },
    });
    expect(lockedMail.statusCode).toBe(429);
    expect(lockedMail.json().message_client).toBe(errorTexts.attemptsExceeded);
    const parts: FormPart[] = [
      { name: 'uuidUser', value: locked.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'f.png', contentType: 'image/png', data: front.image },
    ];
    const { payload, contentType } = multipartBody(parts);
    expect((await t.app.inject({ method: 'POST', url: '/v2/ocr', headers: { ...locked, 'content-type': contentType }, payload })).statusCode).toBe(429);
  }, 30_000);

  it('lets exactly one of two workers claim a job', async () => {
    const id = await enqueueJob(t.db, cipherOf(t), { kind: 'prueba', payload: { n: 1 }, runAt: new Date(Date.now() + 60_000) });
    const later = new Date(Date.now() + 61_000);
    const [a, b] = await Promise.all([claimJob(t.db, cipherOf(t), 'node-a', 60_000, later), claimJob(t.db, cipherOf(t), 'node-b', 60_000, later)]);
    expect([a, b].filter((j) => j?.id === id)).toHaveLength(1);
  });
});

describe.each(engines)('result e-mail across a restart ($name)', (engine) => {
  it('retries a failed send with backoff and finishes it after the service restarts on the same DATA_DIR', async () => {
    // SMTP on a closed port: the first node's attempt fails and is rescheduled.
    const t = await startTestApp(engine, { SMTP_URL: 'smtp://127.0.0.1:9' }, { jobs: { pollMs: 100, backoffMs: 60_000 } });
    let second: Awaited<ReturnType<typeof import('../src/app.js').buildApp>> | undefined;
    try {
      const h = trxHeaders();
      await t.app.inject({ method: 'GET', url: '/v1/params', headers: h });
      await addEvidence(t.db, cipherOf(t), {
        uuidTrx: h.transaccion,
        grantorId: demoId,
        kind: evidenceKind.idFront,
        payload: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: { nombreCompleto: 'ROSA ELENA MARTÍNEZ ÁVILA' }, warnings: [] },
      });
      await recordFaceDecision(t, { uuidTrx: h.transaccion, grantorId: demoId });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/async_zip_nom_151_correo',
        headers: read(h),
        payload: { tipo_envio: 'SEMAFORO', semaforo: 'red', uuidUser: h.cliente, name: '', email: 'rosa@correo.example', custom_uuid: 'x' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { jobId } = res.json().payload as { jobId: string };
      const failed = await waitFor(async () => {
        const state = await jobState(t.db, jobId);
        return state && state.attempts >= 1 && state.state === 'pending' ? state : undefined;
      });
      expect(failed.lastError).toBeTruthy();
      expect(Date.parse(failed.runAt)).toBeGreaterThan(Date.now() + 30_000);
      await t.app.close();
      // Due again (as after the backoff), and picked up by the next process at start.
      await t.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('id', '=', jobId).execute();
      const { buildApp } = await import('../src/app.js');
      second = await buildApp({ ...t.config, smtpUrl: undefined }, { db: t.db, jobs: { pollMs: 100 } });
      const mail = await waitFor(async () => (await listOutbox(t.dataDir, cipherOf(t))).find((m) => m.file.endsWith(`${jobId}.eml.sealed`)));
      expect(mail.eml).toContain('To: rosa@correo.example');
      expect(await pdfText(emlAttachments(mail.eml)[0]!.content)).toContain('ROSA ELENA MARTÍNEZ ÁVILA');
      expect(await waitFor(async () => ((await jobState(t.db, jobId))?.state === 'done' ? true : undefined))).toBe(true);
    } finally {
      await second?.close();
      await t.close();
    }
  }, 60_000);
});
