import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../src/blob/index.js';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { generateWebhookSecret, signatureHeader, verifySignature } from '../src/features/webhooks/signing.js';
import { insertEndpoint } from '../src/features/webhooks/store.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertGrantor } from '../src/store/grantors.js';
import { waitFor } from './results/support.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';
import { acceptConsents, journeyConsents, recordFaceDecision } from './support/journey.js';

const curp = 'NUZM900101MDFXXX09';
const otherKey = 'other-grantor-key-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000b3';

interface Created {
  password: string;
  secret: string | undefined;
}

/** A lender's receiver on this machine that records every delivery and answers 200. */
async function receiver(): Promise<{ url: string; received: { body: string; signature: string }[]; server: Server }> {
  const received: { body: string; signature: string }[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => resolve(body));
    });
  const server = createServer(async (req, res) => {
    received.push({ body: await read(req), signature: String(req.headers[signatureHeader] ?? '') });
    res.statusCode = 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/**
 * The console's case file and review (issue #16): one case's evidence, checks, face decision, consents and score
 * read on the server for a signed-in user of its grantor; images decrypted through the console; approve / reject
 * by reviewers and admins, which marks the case reviewed and queues a signed review.decided webhook.
 */
describe.each(engines)('console case file and review ($name)', (engine) => {
  let t: TestApp;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let webhookSecret: string;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const images: Record<string, Buffer> = {};
  const users: Record<string, { cookie: string; csrf: string }> = {};
  let finishedTrx: string;
  let finishedUser: string;
  let openTrx: string;
  let bareTrx: string;
  let otherTrx: string;

  async function createUser(...argv: string[]): Promise<Created> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runGrantorCommand(t, ['console-user-create', ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) }, undefined, cipher);
    expect(code, err.join('\n')).toBe(0);
    const text = out.join('\n');
    const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
    return { password: /password: (\S+)/.exec(text)![1]!, secret: uri ? new URL(uri).searchParams.get('secret')! : undefined };
  }

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;

  async function signIn(email: string, created: Created) {
    const first = await post('/console/api/session', { email, password: created.password });
    expect(first.statusCode, first.body).toBe(200);
    if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken as string };
    const second = await post('/console/api/session/totp', { code: totpAt(created.secret!, timeStep(new Date())) }, { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken });
    expect(second.statusCode, second.body).toBe(200);
    return { cookie: cookieOf(second), csrf: second.json().csrfToken as string };
  }

  const audits = async (action: string) =>
    (await t.db.selectFrom('console_audit').select(['action', 'detail', 'user_id']).where('action', '=', action).orderBy('id').execute()).map((a) => ({
      ...a,
      detail: JSON.parse(a.detail) as Record<string, unknown>,
    }));
  const review = (uuidTrx: string, who: { cookie: string; csrf: string }, body: unknown, csrf = who.csrf) =>
    post(`/console/api/cases/${uuidTrx}/review`, body, { cookie: who.cookie, 'x-csrf-token': csrf });

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    hook = await receiver();
    webhookSecret = generateWebhookSecret();
    await insertEndpoint(t.db, cipher(), { grantorId: demoId, url: hook.url, secret: webhookSecret });
    // The users are created one by one: the e-mails are unique and a user's second factor is optional below admin.
    // Their sign-ins come after the cases, so the TOTP codes (one use each) belong to different users.
    const created = {
      admin: ['admin@demo.example', await createUser('--grantor', demoId, '--email', 'admin@demo.example', '--role', 'admin')],
      reviewer: ['reviewer@demo.example', await createUser('--grantor', demoId, '--email', 'reviewer@demo.example', '--role', 'reviewer')],
      viewer: ['viewer@demo.example', await createUser('--grantor', demoId, '--email', 'viewer@demo.example', '--role', 'viewer')],
      operator: ['ops@platform.example', await createUser('--email', 'ops@platform.example', '--role', 'operator')],
      otherReviewer: ['reviewer@otra.example', await createUser('--grantor', otherId, '--email', 'reviewer@otra.example', '--role', 'reviewer')],
    } as const;

    // A finished case of the demo grantor: consents, the ID read (with its images), the CURP check, the face
    // decision, what the person confirmed (one field typed), then the finished event.
    const demo = await startedTransaction(t.app);
    finishedTrx = demo.transaccion.toLowerCase();
    finishedUser = demo.cliente.toLowerCase();
    expect((await post('/v1/update_cycle', lifecycleEvent(demo), demo)).statusCode).toBe(200);
    await acceptConsents(t.app, demo, journeyConsents);
    expect((await post('/v1/renapo', { uuid: demo.cliente, turn: -1, curp }, demo)).statusCode).toBe(200);
    const blobs = createBlobStore(t.config, cipher());
    const store = async (kind: string, image: Buffer, payload?: unknown) => {
      const blob = await blobs.put(`${demoId}/${finishedUser}/test/${kind}.png`, image, { contentType: 'image/png' });
      await addEvidence(t.db, cipher(), { uuidTrx: finishedTrx, grantorId: demoId, kind, blobKey: blob.key, sha256: blob.sha256, ...(payload ? { payload } : {}) });
    };
    images.front = await png(200, 10, 10);
    images.back = await png(10, 200, 10);
    images.holder = await png(10, 10, 200);
    await store(evidenceKind.idFront, images.front, { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: { nombreCompleto: 'María Fernanda Núñez Zúñiga', curp, vigencia: '2031' } });
    await store(evidenceKind.idBack, images.back, { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: {}, mrz: { valid: true, checkDigits: { documentNumber: true, birthDate: false } } });
    await store(evidenceKind.holderPhoto, images.holder);
    await recordFaceDecision(t, { uuidTrx: finishedTrx, grantorId: demoId });
    await addEvidence(t.db, cipher(), {
      uuidTrx: finishedTrx,
      grantorId: demoId,
      kind: evidenceKind.proofReading,
      payload: {
        outcome: 'passed',
        read: true,
        holderName: 'MARIA FERNANDA NUÑEZ ZUÑIGA',
        street: 'AV INSURGENTES SUR',
        postalCode: '03100',
        issueDate: '2026-10-01',
        maxAgeMonths: 3,
        nameMatchesId: true,
        recent: true,
      },
    });
    await addEvidence(t.db, cipher(), {
      uuidTrx: finishedTrx,
      grantorId: demoId,
      kind: evidenceKind.hologram,
      payload: { outcome: 'passed', highlightChange: 0.4, framesAnalysed: 30, detail: 'brillo cambiante' },
    });
    await addEvidence(t.db, cipher(), {
      uuidTrx: finishedTrx,
      grantorId: demoId,
      kind: evidenceKind.userData,
      payload: [
        { description: 'nombreCompleto', value: 'María Fernanda Núñez Zúñiga' },
        { description: 'vigencia', value: '2031', typed: true },
      ],
    });
    const finished = lifecycleEvent(demo, { step: 'finished', event: JSON.stringify({ status: 'FAIL', step: 'finished', description: 'Proceso concluido' }) });
    expect((await post('/v1/update_cycle', finished, demo)).statusCode).toBe(200);

    // A second finished case with no evidence at all (RED), to be rejected.
    const bare = await startedTransaction(t.app);
    bareTrx = bare.transaccion.toLowerCase();
    expect(
      (await post('/v1/update_cycle', lifecycleEvent(bare, { step: 'finished', event: JSON.stringify({ status: 'FAIL', step: 'finished', description: 'Proceso concluido' }) }), bare)).statusCode,
    ).toBe(200);

    const open = await startedTransaction(t.app);
    openTrx = open.transaccion.toLowerCase();
    expect((await post('/v1/update_cycle', lifecycleEvent(open), open)).statusCode).toBe(200);
    const other = await startedTransaction(t.app, otherKey);
    otherTrx = other.transaccion.toLowerCase();
    expect((await post('/v1/update_cycle', { ...lifecycleEvent(other), company_id: otherId }, other)).statusCode).toBe(200);

    for (const [name, [email, c]] of Object.entries(created)) users[name] = await signIn(email, c);
  });
  afterAll(async () => {
    hook?.server.close();
    await t?.close();
  });

  it('shows the case file: timeline, ID read, typed fields marked, checks, face decision, consents, score and images; the view is audited', async () => {
    const res = await get(`/console/api/cases/${finishedTrx}/file`, users.viewer!.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const file = res.json();
    expect(file.case.uuidTrx).toBe(finishedTrx);
    expect(file.folio).toBe(finishedUser.split('-')[0]);
    expect(file.timeline.map((e: { step: string }) => e.step)).toEqual(expect.arrayContaining(['Términos y aviso de privacidad']));
    expect(file.timeline.length).toBeGreaterThanOrEqual(5);
    expect(file.idRead.find((s: { side: string }) => s.side === 'front').fields).toEqual(expect.arrayContaining([{ name: 'curp', label: 'CURP', value: curp }]));
    expect(file.confirmed).toEqual([
      { name: 'nombreCompleto', label: 'Nombre completo', value: 'María Fernanda Núñez Zúñiga', typed: false },
      { name: 'vigencia', label: 'Vigencia', value: '2031', typed: true },
    ]);
    const checks = Object.fromEntries(file.checks.map((c: { check: string }) => [c.check, c]));
    expect(Object.keys(checks)).toEqual(expect.arrayContaining(['mrz_digitos_verificadores', 'curp_renapo', 'vigencia']));
    expect(checks.curp_renapo.items.length).toBeGreaterThan(0);
    expect(checks.mrz_digitos_verificadores.items).toEqual([
      { rule: 'número de documento', passed: true, detail: '' },
      { rule: 'fecha de nacimiento', passed: false, detail: '' },
    ]);
    expect(file.face).toMatchObject({ match: true, score: 0.9, threshold: 0.5, liveness: { passed: true, spoof: false }, spokenCode: { verified: null }, repeats: null });
    expect(file.proof).toEqual({
      outcome: 'passed',
      read: true,
      fields: [
        { name: 'holderName', label: 'Titular', value: 'MARIA FERNANDA NUÑEZ ZUÑIGA' },
        { name: 'street', label: 'Calle', value: 'AV INSURGENTES SUR' },
        { name: 'postalCode', label: 'Código postal', value: '03100' },
        { name: 'issueDate', label: 'Fecha de emisión', value: '2026-10-01' },
      ],
      nameMatchesId: true,
      recent: true,
      detail: null,
    });
    expect(checks.holograma).toMatchObject({ label: 'Holograma', outcome: 'passed', detail: 'brillo cambiante' });
    expect(file.consents.map((c: { consent: string }) => c.consent).sort()).toEqual([...journeyConsents].sort());
    expect(file.consents[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(['GREEN', 'YELLOW', 'RED']).toContain(file.score.flag);
    expect(file.score.rules.map((r: { rule: string }) => r.rule)).toContain('rostro_coincidencia');
    expect(file.images.sort()).toEqual(['back', 'front', 'holder']);
    expect(file.review).toBeNull();
    expect(file.mayReview).toBe(false);
    expect((await get(`/console/api/cases/${finishedTrx}/file`, users.reviewer!.cookie)).json().mayReview).toBe(true);
    expect((await audits('case_file_viewed')).some((a) => a.detail.uuidTrx === finishedTrx)).toBe(true);
  });

  it("names the case whose accepted reading a refused face video repeats (a replay, docs 'A reading replayed from an earlier session')", async () => {
    const replayed = await startedTransaction(t.app);
    await recordFaceDecision(
      t,
      { uuidTrx: replayed.transaccion, grantorId: demoId },
      {
        match: false,
        faceScore: 0.93,
        threshold: 0.5,
        liveness: { passed: false, spoof: false, signals: {} },
        spokenCode: { verified: null, engine: 'none', detail: 'test' },
        earlierReadings: { compared: 1, repeated: { uuidTrx: finishedTrx, evidenceId: 'ev-1' }, refused: true },
      },
    );
    const res = await get(`/console/api/cases/${replayed.transaccion.toLowerCase()}/file`, users.viewer!.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().face).toMatchObject({ match: false, liveness: { passed: false }, repeats: finishedTrx });
  });

  it("refuses another grantor's case as not found (audited); a platform operator may open any", async () => {
    const foreign = await get(`/console/api/cases/${otherTrx}/file`, users.reviewer!.cookie);
    expect(foreign.statusCode).toBe(404);
    expect((await get(`/console/api/cases/${finishedTrx}/file`, users.otherReviewer!.cookie)).statusCode).toBe(404);
    expect((await get(`/console/api/cases/${finishedTrx}/images/front`, users.otherReviewer!.cookie)).statusCode).toBe(404);
    expect((await audits('case_refused')).map((a) => a.detail.uuidTrx)).toEqual(expect.arrayContaining([otherTrx, finishedTrx]));
    expect((await get(`/console/api/cases/${otherTrx}/file`, users.operator!.cookie)).statusCode).toBe(200);
    expect((await get(`/console/api/cases/${finishedTrx}/file`, users.operator!.cookie)).statusCode).toBe(200);
    expect((await get(`/console/api/cases/${finishedTrx}/file?grantorId=${otherId}`, users.operator!.cookie)).statusCode).toBe(404);
  });

  it('serves the images decrypted only to a signed-in user, never cached; each view audited', async () => {
    expect((await get(`/console/api/cases/${finishedTrx}/images/front`)).statusCode).toBe(401);
    expect((await get(`/console/api/cases/${finishedTrx}/file`)).statusCode).toBe(401);
    for (const which of ['front', 'back', 'holder'] as const) {
      const res = await get(`/console/api/cases/${finishedTrx}/images/${which}`, users.viewer!.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.rawPayload.equals(images[which]!)).toBe(true);
    }
    expect((await get(`/console/api/cases/${openTrx}/images/front`, users.viewer!.cookie)).statusCode).toBe(404);
    expect((await get(`/console/api/cases/${finishedTrx}/images/selfie`, users.viewer!.cookie)).statusCode).toBe(400);
    expect((await audits('case_image_viewed')).filter((a) => a.detail.uuidTrx === finishedTrx).map((a) => a.detail.image)).toEqual(['front', 'back', 'holder']);
  });

  it('refuses a review from a viewer (403), without CSRF (403), with a reason of the other decision (400), of a case under way (409): nothing changes', async () => {
    const approve = { decision: 'approve', reason: 'identity_confirmed', note: 'Revisé la credencial.' };
    expect((await review(finishedTrx, users.viewer!, approve)).statusCode).toBe(403);
    expect((await review(finishedTrx, users.reviewer!, approve, 'not-the-token')).statusCode).toBe(403);
    expect((await review(finishedTrx, users.reviewer!, { ...approve, reason: 'face_mismatch' })).statusCode).toBe(400);
    expect((await review(finishedTrx, users.reviewer!, { ...approve, decision: 'maybe' })).statusCode).toBe(400);
    expect((await review(openTrx, users.reviewer!, approve)).statusCode).toBe(409);
    expect((await review(otherTrx, users.reviewer!, approve)).statusCode).toBe(404);
    expect((await review(finishedTrx, users.operator!, approve)).statusCode).toBe(403);
    expect(await t.db.selectFrom('console_reviews').selectAll().execute()).toHaveLength(0);
    expect((await audits('review_refused')).map((a) => a.detail.role)).toEqual(['viewer', 'operator']);
  });

  it('an approval is stored, shows the case as reviewed in the list, is audited and sends a signed review.decided webhook', async () => {
    const before = (await get(`/console/api/cases?status=YELLOW`, users.reviewer!.cookie)).json().cases.concat((await get(`/console/api/cases?status=RED`, users.reviewer!.cookie)).json().cases);
    expect(before.map((c: { uuidTrx: string }) => c.uuidTrx)).toContain(finishedTrx);

    const res = await review(finishedTrx, users.reviewer!, { decision: 'approve', reason: 'identity_confirmed', note: 'Revisé la credencial de María.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().review).toMatchObject({ decision: 'approve', reason: 'identity_confirmed', note: 'Revisé la credencial de María.', reviewer: 'reviewer@demo.example' });
    expect(res.json().case).toMatchObject({ status: 'reviewed', review: { decision: 'approve', reason: 'identity_confirmed' } });
    expect(res.json().timeline.at(-1)).toMatchObject({ source: 'Consola', step: 'Revisión' });

    const list = (await get('/console/api/cases', users.viewer!.cookie)).json().cases;
    expect(list.find((c: { uuidTrx: string }) => c.uuidTrx === finishedTrx)).toMatchObject({ status: 'reviewed', review: { decision: 'approve' } });
    expect((await get('/console/api/cases?status=reviewed', users.viewer!.cookie)).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([finishedTrx]);
    for (const flag of ['GREEN', 'YELLOW', 'RED']) {
      expect((await get(`/console/api/cases?status=${flag}`, users.viewer!.cookie)).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).not.toContain(finishedTrx);
    }
    // The note is stored encrypted and not audited.
    const stored = await t.db.selectFrom('console_reviews').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('María');
    const audited = await audits('case_reviewed');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.detail).toMatchObject({ uuidTrx: finishedTrx, decision: 'approve', reason: 'identity_confirmed' });
    expect(JSON.stringify(audited)).not.toContain('María');

    // One decision per case.
    expect((await review(finishedTrx, users.admin!, { decision: 'reject', reason: 'suspected_fraud', note: '' })).statusCode).toBe(409);
    expect(await t.db.selectFrom('console_reviews').selectAll().execute()).toHaveLength(1);

    const event = await waitFor(async () => {
      const found = hook.received.find((r) => (JSON.parse(r.body) as { type: string }).type === 'review.decided');
      return found;
    }, 30_000);
    expect(verifySignature(webhookSecret, event.body, event.signature, Math.floor(Date.now() / 1000))).toBe(true);
    const body = JSON.parse(event.body) as { id: string; type: string; data: Record<string, unknown> };
    expect(body.id).toMatch(/^evt_/);
    expect(body.data).toMatchObject({ uuidTrx: finishedTrx, uuidUser: finishedUser, folio: finishedUser.split('-')[0], decision: 'approve', reason: 'identity_confirmed', reviewId: stored[0]!.id });
    expect(['GREEN', 'YELLOW', 'RED']).toContain(body.data.semaforo);
    expect(event.body).not.toContain('María');
    expect(hook.received.filter((r) => (JSON.parse(r.body) as { type: string }).type === 'review.decided')).toHaveLength(1);
  });

  it('an admin rejects a case with a reject reason; the list and the webhook say so; an approve reason is refused for a rejection', async () => {
    expect((await review(bareTrx, users.admin!, { decision: 'reject', reason: 'identity_confirmed' })).statusCode).toBe(400);
    const res = await review(bareTrx, users.admin!, { decision: 'reject', reason: 'incomplete' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().review).toMatchObject({ decision: 'reject', reason: 'incomplete', note: '', reviewer: 'admin@demo.example' });
    expect(res.json().score.flag).toBe('RED');
    const list = (await get('/console/api/cases?status=reviewed', users.viewer!.cookie)).json().cases;
    expect(list.find((c: { uuidTrx: string }) => c.uuidTrx === bareTrx)).toMatchObject({ status: 'reviewed', review: { decision: 'reject', reason: 'incomplete' } });
    const event = await waitFor(
      async () => hook.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> }).find((e) => e.type === 'review.decided' && e.data.uuidTrx === bareTrx),
      30_000,
    );
    expect(event.data).toMatchObject({ decision: 'reject', reason: 'incomplete', semaforo: 'RED' });
  });
});
