import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, renderProof } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLinkKey } from '../src/crypto/link-key.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { evidenceKind } from '../src/domain/evidence-kinds.js';
import { checkRedoCredential } from '../src/features/redo/links.js';
import { claimResultEmail } from '../src/features/results/result-emails.js';
import { outboxDir, readOutbox } from '../src/features/sms/senders.js';
import { generateWebhookSecret } from '../src/features/webhooks/signing.js';
import { insertEndpoint } from '../src/features/webhooks/store.js';
import { listOutbox } from '../src/mail/mailer.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertGrantor } from '../src/store/grantors.js';
import { waitFor } from './results/support.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { createConsoleUser, signInConsole, type ConsoleWho } from './support/console-users.js';
import { demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';
import { receiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { acceptConsents, journeyConsents, recordFaceDecision } from './support/journey.js';
import { multipartBody } from './uploads/samples.js';

const otherKey = 'other-grantor-key-redo-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000c7';
const today = new Date().toISOString().slice(0, 10);
const holder = { nombres: 'NOEMÍ', apellidoPaterno: 'LÓPEZ', apellidoMaterno: 'ESPINOZA' };
const address = { street: 'CALLE HIDALGO', exteriorNumber: '59', interiorNumber: null, settlement: 'ROMA NORTE', postalCode: '06700', municipality: 'CUAUHTÉMOC', state: 'CIUDAD DE MÉXICO' } as const;

type Who = ConsoleWho;
type Trx = Awaited<ReturnType<typeof startedTransaction>>;

/**
 * The review decision `redo` (issue #16): a reviewer asks the customer to redo one step; the link goes by e-mail
 * (outbox) and SMS (outbox), opens that step only, the new evidence lands in the case file, the case returns to
 * review and the webhooks tell the lender. Refused: a viewer, another grantor's reviewer, a replayed link.
 */
describe.each(engines)('review decision redo ($name)', (engine) => {
  let t: TestApp;
  let hook: WebhookReceiver;
  let fixtures: string;
  const users: Record<string, Who> = {};
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const review = (uuidTrx: string, who: Who, body: unknown) => post(`/console/api/cases/${uuidTrx}/review`, body, { cookie: who.cookie, 'x-csrf-token': who.csrf });
  const upload = (url: string, token: string, parts: Parameters<typeof multipartBody>[0]) => {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url, headers: { 'x-redo-token': token, 'content-type': contentType }, payload });
  };
  const image = (data: Buffer, extra: { name: string; value: string }[] = []) => [...extra, { name: 'file', filename: 'foto.png', contentType: 'image/png', data }];
  const hooks = () => hook.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

  const createUser = (...argv: string[]) => createConsoleUser(t, ...argv);
  const signIn = (created: Awaited<ReturnType<typeof createUser>>) => signInConsole(t, created);

  /** A finished case of the demo grantor: consents, an ID front read, the face decision, a proof reading that failed. */
  async function finishedCase(contacts: { email?: string; phone?: string }): Promise<Trx> {
    const trx = await startedTransaction(t.app);
    const uuidTrx = trx.transaccion.toLowerCase();
    expect((await post('/v1/update_cycle', lifecycleEvent(trx), trx)).statusCode).toBe(200);
    await acceptConsents(t.app, trx, journeyConsents);
    const nombreCompleto = `${holder.nombres} ${holder.apellidoPaterno} ${holder.apellidoMaterno}`;
    const base = { uuidTrx, grantorId: demoId };
    await addEvidence(t.db, cipher(), { ...base, kind: evidenceKind.idFront, payload: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: { nombreCompleto, ...holder } } });
    await addEvidence(t.db, cipher(), { ...base, kind: evidenceKind.proofReading, payload: { outcome: 'failed', read: false, detail: 'unreadable', nameMatchesId: null, recent: null } });
    await recordFaceDecision(t, base);
    if (contacts.email) await claimResultEmail(t.db, cipher(), uuidTrx, contacts.email, 2);
    if (contacts.phone) await addEvidence(t.db, cipher(), { ...base, kind: evidenceKind.phoneVerified, payload: { areaCode: '52', number: contacts.phone, verifiedAt: new Date().toISOString() } });
    const finished = lifecycleEvent(trx, { step: 'finished', event: JSON.stringify({ status: 'FAIL', step: 'finished', description: 'Proceso concluido' }) });
    expect((await post('/v1/update_cycle', finished, trx)).statusCode).toBe(200);
    return trx;
  }

  /** The redo link of the e-mail to `to`: the whole link is written out in the text part (quoted-printable decoded here). */
  async function mailedLink(to: string): Promise<{ eml: string; url: URL }> {
    const decoded = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const eml = await waitFor(async () => (await listOutbox(t.dataDir, cipher())).map((m) => decoded(m.eml)).find((m) => m.includes(`To: ${to}`) && m.includes('/repetir?token=')));
    const url = /(http\S+\/repetir\?token=[A-Za-z0-9._-]+)/.exec(eml)![1]!;
    return { eml, url: new URL(url) };
  }

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    hook = await receiver(0);
    await insertEndpoint(t.db, cipher(), { grantorId: demoId, url: hook.url, secret: generateWebhookSecret() });
    const created = {
      reviewer: await createUser('--grantor', demoId, '--email', 'reviewer@demo.example', '--role', 'reviewer'),
      viewer: await createUser('--grantor', demoId, '--email', 'viewer@demo.example', '--role', 'viewer'),
      otherReviewer: await createUser('--grantor', otherId, '--email', 'reviewer@otra.example', '--role', 'reviewer'),
    };
    for (const [name, c] of Object.entries(created)) users[name] = await signIn(c);
    fixtures = await mkdtemp(path.join(os.tmpdir(), 'redo-api-'));
  }, 60_000);
  afterAll(async () => {
    hook?.server.close();
    await t?.close();
    if (fixtures) await rm(fixtures, { recursive: true, force: true });
  });

  it('refuses a redo from a viewer (403), from another grantor (404), without a step (400), to a channel the case lacks or on a case under way (409)', async () => {
    const trx = await finishedCase({ email: 'persona@correo.example' });
    const uuidTrx = trx.transaccion.toLowerCase();
    const ask = { decision: 'redo', reason: 'proof_outdated', note: '', step: 'proof', channels: ['email'] };
    expect((await review(uuidTrx, users.viewer!, ask)).statusCode).toBe(403);
    expect((await review(uuidTrx, users.otherReviewer!, ask)).statusCode).toBe(404);
    expect((await review(uuidTrx, users.reviewer!, { ...ask, step: undefined })).statusCode).toBe(400);
    expect((await review(uuidTrx, users.reviewer!, { ...ask, step: 'consents' })).statusCode).toBe(400);
    // The face video is compared with the ID's holder photo: a case without one cannot be asked for it.
    const noPhoto = await review(uuidTrx, users.reviewer!, { ...ask, step: 'face' });
    expect(noPhoto.statusCode).toBe(409);
    expect(noPhoto.json().message_client).toMatch(/no tiene la foto de una identificación/);
    expect((await review(uuidTrx, users.reviewer!, { ...ask, reason: 'identity_confirmed' })).statusCode).toBe(400);
    const noPhone = await review(uuidTrx, users.reviewer!, { ...ask, channels: ['sms'] });
    expect(noPhone.statusCode).toBe(409);
    expect(noPhone.json().message_client).toMatch(/no tiene un correo o un celular/);
    const open = await startedTransaction(t.app);
    expect((await review(open.transaccion.toLowerCase(), users.reviewer!, ask)).statusCode).toBe(409);
    expect(await t.db.selectFrom('redo_requests').selectAll().where('uuid_trx', '=', uuidTrx).execute()).toHaveLength(0);
  });

  it('asks to redo the proof of address: link by e-mail and SMS, only that step, evidence replaced, back to review, webhooks; a replayed link is refused', async () => {
    const trx = await finishedCase({ email: 'noemi@correo.example', phone: '5512345678' });
    const uuidTrx = trx.transaccion.toLowerCase();
    const asked = await review(uuidTrx, users.reviewer!, { decision: 'redo', reason: 'proof_outdated', note: 'El recibo es de 2023.', step: 'proof', channels: ['email', 'sms'] });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().case.status).toBe('redo_requested');
    expect(asked.json().redo).toMatchObject({
      step: 'proof',
      reason: 'proof_outdated',
      note: 'El recibo es de 2023.',
      reviewer: 'reviewer@demo.example',
      state: 'pending',
      channels: ['email', 'sms'],
    });
    expect(asked.json().redoChannels).toEqual(['email', 'sms']);
    expect(asked.json().timeline.map((e: { detail: string }) => e.detail)).toContainEqual(expect.stringMatching(/^Repetir paso solicitado por reviewer@demo.example: Comprobante de domicilio/));
    const listed = (status: string) => get(`/console/api/cases?status=${status}`, { cookie: users.viewer!.cookie }).then((r) => r.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx));
    expect(await listed('redo_requested')).toContain(uuidTrx);
    expect([...(await listed('YELLOW')), ...(await listed('RED'))]).not.toContain(uuidTrx);
    // One pending redo at a time.
    expect((await review(uuidTrx, users.reviewer!, { decision: 'redo', reason: 'image_unreadable', note: '', step: 'id', channels: ['email'] })).statusCode).toBe(409);

    const decided = await waitFor(async () => hooks().find((h) => h.type === 'review.decided' && h.data.uuidTrx === uuidTrx));
    expect(decided.data).toMatchObject({ decision: 'redo', step: 'proof', reason: 'proof_outdated', channels: ['email', 'sms'] });
    expect(JSON.stringify(decided)).not.toContain('2023');
    const { eml, url } = await mailedLink('noemi@correo.example');
    expect(eml).toContain('necesitamos que repitas un paso');
    expect(eml).toContain('tu comprobante de domicilio');
    const sms = await waitFor(async () => (await readOutbox(outboxDir(t.dataDir))).find((m) => m.to === '+525512345678'));
    expect(sms.text).toContain(url.toString());
    const token = url.searchParams.get('token')!;

    const status = await get('/v1/redo', { 'x-redo-token': token });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ step: 'proof', idOtorgante: demoId, uuidTrx });
    // Only that step: the ID through this link, the journey's own proof route (the case is finished), finishing early.
    const bill = await renderProof({ seed: 'redo-1', layout: 'luz', referenceDate: today, ageDays: 20, holder, address });
    const idThroughProofLink = await upload('/v1/redo/id', token, image(bill.png, [{ name: 'side', value: 'front' }]));
    expect(idThroughProofLink.statusCode).toBe(403);
    expect(idThroughProofLink.json().message_client).toBe('Este enlace solo permite repetir el paso que te solicitamos.');
    const { payload, contentType } = multipartBody([{ name: 'folder', value: `${demoId}/${trx.cliente}/domicilio` }, { name: 'uuid', value: trx.cliente }, ...image(bill.png)]);
    expect((await t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...trx, 'content-type': contentType }, payload })).statusCode).toBe(409);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(409);
    expect((await get('/v1/redo')).statusCode).toBe(401);
    expect((await get('/v1/redo', { 'x-redo-token': `${token.slice(0, -2)}xx` })).statusCode).toBe(400);

    const sent = await upload('/v1/redo/proof', token, image(bill.png));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().payload.read).toBe(true);
    const finished = await post('/v1/redo/finish', {}, { 'x-redo-token': token });
    expect(finished.statusCode, finished.body).toBe(200);

    const file = (await get(`/console/api/cases/${uuidTrx}/file`, { cookie: users.reviewer!.cookie })).json();
    expect(file.case.status).not.toBe('redo_requested');
    expect(['GREEN', 'YELLOW', 'RED']).toContain(file.case.status);
    expect(file.proof).toMatchObject({ read: true, nameMatchesId: true });
    expect(file.redo).toMatchObject({ state: 'completed' });
    expect(file.timeline.map((e: { step: string }) => e.step)).toContain('Repetición');
    expect(await listed('redo_requested')).not.toContain(uuidTrx);
    const completed = await waitFor(async () => hooks().find((h) => h.type === 'verification.completed' && h.data.uuidTrx === uuidTrx && h.data.reason === 'redo_completed'));
    expect(completed.data).toMatchObject({ step: 'redo:proof', semaforo: file.score.flag });

    // Used up: the replayed link is refused everywhere.
    const replay = await get('/v1/redo', { 'x-redo-token': token });
    expect(replay.statusCode).toBe(410);
    expect(replay.json().message_client).toMatch(/ya fue utilizado/);
    expect((await upload('/v1/redo/proof', token, image(bill.png))).statusCode).toBe(410);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(410);
    // The case can be decided now.
    expect((await review(uuidTrx, users.reviewer!, { decision: 'approve', reason: 'documents_confirmed', note: '' })).statusCode).toBe(200);
  }, 120_000);

  it('asks to redo the ID: front and back read again through the link; an expired link and one withdrawn by a final decision are refused', async () => {
    await generateFixtureSet({ outDir: fixtures, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26', ineModel: 'g-h' });
    const front = await readFile(path.join(fixtures, 'ine-000-front-clean.png'));
    const back = await readFile(path.join(fixtures, 'ine-000-back-clean.png'));
    const trx = await finishedCase({ email: 'id@correo.example' });
    const uuidTrx = trx.transaccion.toLowerCase();
    expect((await review(uuidTrx, users.reviewer!, { decision: 'redo', reason: 'image_unreadable', note: '', step: 'id', channels: ['email'] })).statusCode).toBe(200);
    const token = (await mailedLink('id@correo.example')).url.searchParams.get('token')!;
    // The link lapses with its expiry (72 h).
    const later = new Date(Date.now() + 73 * 3_600_000);
    await expect(checkRedoCredential({ db: t.db, linkKey: loadLinkKey(t.config).key }, token, later)).rejects.toMatchObject({ refusal: { reason: 'link_expired' } });

    expect((await upload('/v1/redo/proof', token, image(front))).statusCode).toBe(403);
    const frontRes = await upload('/v1/redo/id', token, image(front, [{ name: 'side', value: 'front' }]));
    expect(frontRes.statusCode, frontRes.body).toBe(200);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(409);
    const backRes = await upload('/v1/redo/id', token, image(back, [{ name: 'side', value: 'back' }]));
    expect(backRes.statusCode, backRes.body).toBe(200);
    expect((await post('/v1/redo/finish', {}, { 'x-redo-token': token })).statusCode).toBe(200);
    const file = (await get(`/console/api/cases/${uuidTrx}/file`, { cookie: users.reviewer!.cookie })).json();
    const frontRead = file.idRead.find((s: { side: string }) => s.side === 'front');
    expect(frontRead.fields.find((f: { name: string }) => f.name === 'curp')?.value).toBe(frontRes.json().payload.ocrData.curp);
    expect(file.idRead.map((s: { side: string }) => s.side)).toEqual(['front', 'back']);

    // A final decision withdraws a pending redo: its link answers 410.
    const other = await finishedCase({ email: 'retirado@correo.example' });
    const otherTrx = other.transaccion.toLowerCase();
    expect((await review(otherTrx, users.reviewer!, { decision: 'redo', reason: 'proof_outdated', note: '', step: 'proof', channels: ['email'] })).statusCode).toBe(200);
    const withdrawn = (await mailedLink('retirado@correo.example')).url.searchParams.get('token')!;
    expect((await review(otherTrx, users.reviewer!, { decision: 'reject', reason: 'incomplete', note: '' })).statusCode).toBe(200);
    expect((await get('/v1/redo', { 'x-redo-token': withdrawn })).statusCode).toBe(410);
  }, 180_000);
});
