import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { errorTexts } from '@kyc/contracts';
import { writeFaceVideo } from '@kyc/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultLinkContext } from '../src/features/results/routes.js';
import { consumeLink, issueResultLink, signLinkCredential, signLinkToken, type LinkContext } from '../src/features/results/links.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { followsTestSchedule, repeatedReadingsAllowed, testScheduleEnv } from './support/schedule.js';
import { generatedHolder, holderSeed, scheduledReading, strangerFace } from './support/holder.js';
import { writeParams } from '../src/store/grantors.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, recordFaceDecision } from './support/journey.js';
import { connectClient, createConnection } from './support/realtime-client.js';
import { createBlobStore } from '../src/blob/index.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { createFaceEngine } from '../src/engines/face/engine.js';
import { lazyFaceEngine } from '../src/engines/face/provider.js';
import { videoTokenRecordingHandlers } from '../src/features/realtime/video-token-handler.js';
import { authorizeLink } from '../src/features/results/link-video.js';
import { RefusedError } from '../src/domain/refusal.js';
import { reasonStatus } from '../src/http/reasons.js';
import { raiseAttempts } from '../src/store/attempts.js';
import { setLockUntil } from '../src/store/transactions.js';
import { multipartBody, type FormPart } from './uploads/samples.js';
import { AppCaches } from '../src/caches.js';

let dir: string;
let front: Buffer;
let photo: Buffer;
const videos: Record<'holder' | 'other', Buffer> = {} as never;
/** The holder's video as the real-time path records it (webm on disk). */
let holderWebm: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'public-video-token-'));
  const holder = await generatedHolder(dir);
  ({ front, photo } = holder);
  const [holderMp4, otherMp4, webm] = await Promise.all([
    scheduledReading(dir, holder.faceId),
    scheduledReading(dir, strangerFace),
    writeFaceVideo({ ...followsTestSchedule, faceId: holder.faceId, kind: 'live', outDir: path.join(dir, 'webm'), seed: holderSeed }),
  ]);
  holderWebm = webm.video;
  videos.holder = holderMp4;
  videos.other = otherMp4;
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(engines)('result-link face re-verification ($name)', (engine) => {
  let t: TestApp;
  let links: LinkContext;
  const h = trxHeaders();
  const subject = () => ({ uuidTrx: h.transaccion, uuidUser: h.cliente, grantorId: demoId });

  async function multipart(url: string, headers: Record<string, string>, parts: FormPart[]) {
    const { payload, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  }

  const publicOtp = (credential: string, uuid = h.cliente) =>
    multipart('/v1/public_otp', { 'X-Consumer-Custom-ID': credential }, [
      { name: 'uuid', value: uuid },
      { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: photo },
    ]);

  async function code(credential: string) {
    const res = await publicOtp(credential);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().payload.codes as { code: string; created: string; expire: string };
  }

  const publicVideo = (credential: string, codes: { created: string; expire: string }, video: Buffer, uuidUser = h.cliente) =>
    multipart('/v1/public_video_token', { 'X-Consumer-Custom-ID': credential }, [
      { name: 'uuidUser', value: uuidUser },
      { name: 'created', value: codes.created },
      { name: 'expire', value: codes.expire },
      { name: 'originOS', value: 'android' },
      { name: 'service_call', value: 'videotoken-pdf' },
      { name: 'videotoken', filename: 'video.mp4', contentType: 'video/mp4', data: video },
    ]);

  async function transaction() {
    const res = await t.app.inject({ method: 'GET', url: `/v1/transactions/${h.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } });
    const body = res.json().payload;
    return {
      attempts: body.transaction.attempts as Record<string, number>,
      // The link flow's own face videos: the main flow's decision recorded in beforeAll is left out.
      faceVideos: (body.evidence as Array<{ kind: string }>).filter((e) => e.kind === 'video_token').length - 1,
    };
  }

  const issue = (document: 'autorizacion' | 'reporte', expiresInMs = 3_600_000) => issueResultLink(links, { ...subject(), document, expiresAt: new Date(Date.now() + expiresInMs) });

  beforeAll(async () => {
    t = await startTestApp(engine, testScheduleEnv);
    // The holder's one generated reading is sent again and again (the link's attempts are the subject).
    await writeParams(t, demoId, repeatedReadingsAllowed);
    links = resultLinkContext({ config: t.config, db: t.db, caches: new AppCaches() });
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: h })).statusCode).toBe(200);
    await acceptConsents(t.app, h);
    const ocr = await multipart('/v2/ocr', h, [
      { name: 'uuidUser', value: h.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'front.png', contentType: 'image/png', data: front },
    ]);
    expect(ocr.statusCode, ocr.body).toBe(200);
    // The main flow's face video, decided two hours ago: the link's own face video is what these tests are about.
    await recordFaceDecision(t, { uuidTrx: h.transaccion, grantorId: demoId }, undefined, new Date(Date.now() - 2 * 3_600_000));
    const docs = await t.app.inject({ method: 'POST', url: '/v1/proccessdocuments', headers: { ...h, authorization: 'Bearer demo-secret' }, payload: { uuidUser: h.cliente } });
    expect(docs.statusCode, docs.body).toBe(200);
  }, 60_000);
  afterAll(async () => t?.close());

  it('tells /pdf_token at once whether its link can still be consulted: open, already consulted, expired, not a link (issue 21)', async () => {
    const status = (credential: string) => t.app.inject({ method: 'GET', url: '/v1/public/link_status', headers: { 'X-Consumer-Custom-ID': credential } });
    const link = await issue('reporte');
    const open = await status(link.credential);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().payload).toEqual({ state: 'open', expiresAt: new Date(link.fecha).toISOString() });
    // The one consultation: the link verified by the face video, then downloaded.
    await t.db.updateTable('result_links').set({ state: 'verified' }).where('id', '=', link.linkId).execute();
    expect(await consumeLink(t.db, link.linkId)).toBe(true);
    const consumed = await status(link.credential);
    expect(consumed.statusCode).toBe(410);
    expect(consumed.json().message_client).toBe(errorTexts.linkConsumed);
    const soon = await issue('reporte', 1_000);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await status(soon.credential);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message_client).toBe(errorTexts.linkExpired);
    expect((await status('no.es.enlace')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/v1/public/link_status' })).statusCode).toBe(400);
  });

  it('puts the link credential in the /pdf_token URL and refuses missing, tampered, foreign, expired and download credentials', async () => {
    const link = await issue('autorizacion');
    const url = new URL(link.pdfTokenUrl);
    expect(url.pathname).toBe('/pdf_token');
    expect(Object.fromEntries(url.searchParams)).toEqual({ uuid: h.cliente, idOtorgante: demoId, fecha: String(link.fecha), uuidTrx: h.transaccion, token: link.credential });

    const missing = await multipart('/v1/public_otp', {}, [
      { name: 'uuid', value: h.cliente },
      { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    expect(missing.statusCode).toBe(400);
    const [head, body, signature] = link.credential.split('.') as [string, string, string];
    const tampered = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await publicOtp(tampered)).statusCode).toBe(400);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const otherTrx = Buffer.from(JSON.stringify({ ...claims, trx: trxHeaders().transaccion })).toString('base64url');
    expect((await publicOtp(`${head}.${otherTrx}.${signature}`)).statusCode).toBe(400);
    // The download token of the same link is not a credential (another audience).
    const download = await signLinkToken(links, { ...subject(), linkId: link.linkId, document: 'autorizacion', fecha: link.fecha });
    expect((await publicOtp(download)).statusCode).toBe(400);
    // Somebody else's uuidUser with this link.
    const foreign = await publicOtp(link.credential, trxHeaders().cliente);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message_client).toBe(errorTexts.badUrl);
    // Expired: the signed expiry, and the stored one.
    const lapsed = await signLinkCredential(links, { ...subject(), linkId: link.linkId, fecha: Date.now() - 1000 });
    expect((await publicOtp(lapsed)).statusCode).toBe(410);
    const short = await issue('autorizacion', 400);
    await new Promise((r) => setTimeout(r, 1100));
    const late = await publicVideo(short.credential, { created: new Date().toISOString(), expire: new Date().toISOString() }, videos.holder);
    expect(late.statusCode).toBe(410);

    // Nothing changed: no attempt, no face video, the link still waits for the face.
    expect(await transaction()).toEqual({ attempts: {}, faceVideos: 0 });
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${download}` })).statusCode).toBe(403);
  }, 30_000);

  it('refuses the document to another person reading the code', async () => {
    const link = await issue('reporte');
    const codes = await code(link.credential);
    const res = await publicVideo(link.credential, codes, videos.other);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: errorTexts.noMatch, message_client: errorTexts.noMatchClient });
    expect(res.json().payload).toBeUndefined();
    const download = await signLinkToken(links, { ...subject(), linkId: link.linkId, document: 'reporte', fecha: link.fecha });
    expect((await t.app.inject({ method: 'GET', url: `/v1/enlace/${download}` })).statusCode).toBe(403);
    expect(await transaction()).toEqual({ attempts: { video_token_pdf: 1 }, faceVideos: 1 });
  }, 60_000);

  it('verifies the ID holder, returns the one-time download, then refuses the consumed link', async () => {
    const link = await issue('autorizacion');
    const codes = await code(link.credential);
    const res = await publicVideo(link.credential, codes, videos.holder);
    expect(res.statusCode, res.body).toBe(200);
    const payload = res.json().payload as { match: boolean; liveness: boolean; documentLink: string };
    expect(payload).toMatchObject({ match: true, liveness: true });
    const enlace = new URL(payload.documentLink);
    expect(enlace.pathname).toMatch(/^\/v1\/enlace\/[\w-]+\.[\w-]+\.[\w-]+$/);

    const first = await t.app.inject({ method: 'GET', url: enlace.pathname });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toMatch(/application\/pdf/);
    expect(first.headers['content-disposition']).toContain('pdf_autorizacion.pdf');
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.app.inject({ method: 'GET', url: enlace.pathname })).statusCode).toBe(410);

    // Replays of the consumed link: no code, no video decided.
    const before = await transaction();
    expect((await publicOtp(link.credential)).statusCode).toBe(410);
    expect((await publicVideo(link.credential, codes, videos.holder)).statusCode).toBe(410);
    expect(await transaction()).toEqual(before);
  }, 60_000);
  it('authorises the real-time VIDEO_TOKEN_PDF by the link credential in key', async () => {
    const link = await issue('autorizacion');
    const offer = await createConnection(t, { transaccion: h.transaccion, cliente: h.cliente, 'x-consumer-custom-id': link.credential });
    const client = await connectClient(t, offer, { sendTracks: false });
    const message = (overrides: Record<string, unknown>) =>
      JSON.stringify({ uuid: h.cliente, cliente: h.cliente, transaccion: h.transaccion, type: 'VIDEO_TOKEN_PDF', key: link.credential, service: 'videotoken-pdf', ...overrides });
    try {
      // The grantor's api key is not a link credential.
      expect(JSON.parse(await client.send(message({ key: 'demo' })))).toMatchObject({ status: 400 });
      const [head, body, signature] = link.credential.split('.') as [string, string, string];
      const tampered = `${head}.${body}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(JSON.parse(await client.send(message({ key: tampered })))).toMatchObject({ status: 400, res: { message: expect.stringMatching(/not valid/) } });
      const otherUser = randomUUID();
      expect(JSON.parse(await client.send(message({ uuid: otherUser, cliente: otherUser })))).toMatchObject({ status: 403 });
      expect(JSON.parse(await client.send(message({ transaccion: randomUUID() })))).toMatchObject({ status: 403 });
      // Authenticated: refused only because this client negotiated no media.
      expect(JSON.parse(await client.send(message({})))).toMatchObject({ status: 400, res: { message: 'Invalid message: no media track was negotiated' } });
    } finally {
      await client.close();
      await t.app.inject({ method: 'DELETE', url: `/record/connections/${offer.id}` });
    }
  }, 30_000);
  it('decides a real-time VIDEO_TOKEN_PDF recording of the holder and answers the one-time download', async () => {
    // The handler the media server hands a finished recording to, on the service's own data key and blob store.
    const cipher = createDataCipher(loadDataKey(t.config).key);
    const blobs = createBlobStore(t.config, cipher);
    const face = lazyFaceEngine(() => createFaceEngine({ workers: 1 }));
    try {
      const link = await issue('autorizacion');
      const codes = await code(link.credential);
      const auth = await authorizeLink(links, link.credential, h.cliente);
      const { uuidTrx, uuidUser, grantorId } = auth.link;
      const handler = videoTokenRecordingHandlers({ db: t.db, cipher, blobs, face, caches: t.caches }, links).VIDEO_TOKEN_PDF;
      const message = {
        uuid: h.cliente,
        cliente: h.cliente,
        transaccion: h.transaccion,
        type: 'VIDEO_TOKEN_PDF' as const,
        key: link.credential,
        created: codes.created,
        expire: codes.expire,
        service: 'videotoken-pdf',
      };
      const recording = {
        path: holderWebm,
        mimeType: 'video/webm' as const,
        message,
        durationMs: 9000,
        tracks: ['video', 'audio'] as ('video' | 'audio')[],
        blobKey: 'unused',
        sha256: '',
        size: 0,
        evidenceId: '',
      };
      const reply = await handler(recording, { grantor: auth.grantor, transaction: { uuidTrx, uuidUser, grantorId }, link: auth });
      // On a refusal, the decision's signals say why (a CI failure is then readable without a re-run).
      const why =
        reply.status === 200
          ? ''
          : JSON.stringify(
              (await t.app.inject({ method: 'GET', url: `/v1/transactions/${h.transaccion}/events`, headers: { authorization: 'Bearer demo-secret' } })).json().payload.evidence.at(-1),
            ).slice(0, 4000);
      expect(reply.status, `${JSON.stringify(reply.res)} ${why}`).toBe(200);
      const documentLink = (reply.res as { payload: { match: boolean; documentLink: string } }).payload.documentLink;
      expect(reply.res).toMatchObject({ status: 200, payload: { match: true, liveness: true } });
      const first = await t.app.inject({ method: 'GET', url: new URL(documentLink).pathname });
      expect(first.statusCode, first.body).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: new URL(documentLink).pathname })).statusCode).toBe(410);
      // Without the link (an api-key start message), VIDEO_TOKEN_PDF decides nothing.
      const unlinked = await handler(recording, { grantor: auth.grantor, transaction: { uuidTrx, uuidUser, grantorId } });
      expect(unlinked.status).toBe(401);
    } finally {
      await face.close();
      await blobs.close();
    }
  }, 60_000);

  // Last: it uses up the transaction's link attempts.
  it('allows the link 5 face videos in all (not INTENTOS_VIDEO_TOKEN), then refuses the link for good', async () => {
    const link = await issue('autorizacion');
    // Three failures already counted (the web's restart from /pdf_token does not reset the server's count).
    await raiseAttempts(t.db, h.transaccion, 'video_token_pdf', 3);
    const fourth = await publicVideo(link.credential, await code(link.credential), videos.other);
    expect(fourth.statusCode, fourth.body).toBe(400);
    expect(fourth.json()).toMatchObject({ message: errorTexts.noMatch, message_client: errorTexts.noMatchClient });
    const fifth = await publicVideo(link.credential, await code(link.credential), videos.other);
    expect(fifth.statusCode, fifth.body).toBe(429);
    expect(fifth.json()).toMatchObject({ message_client: errorTexts.attemptsExceeded });
    const spent = await transaction();
    expect(spent.attempts).toMatchObject({ video_token_pdf: 5 });
    expect(spent.attempts.video_token).toBeUndefined();

    // Dead: no code, no video decided, not even the holder's, over HTTP or in real time; nothing recorded.
    const refused = async () => {
      const otp = await publicOtp(link.credential);
      expect(otp.statusCode).toBe(429);
      expect(otp.json().message_client).toBe(errorTexts.attemptsExceeded);
      expect((await publicVideo(link.credential, { created: new Date().toISOString(), expire: new Date().toISOString() }, videos.holder)).statusCode).toBe(429);
      // Locked for the hour, then used up for good: either reason answers 429.
      const refusal = await authorizeLink(links, link.credential, h.cliente).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(RefusedError);
      expect(reasonStatus((refusal as RefusedError).reason)).toBe(429);
    };
    await refused();
    // Also once the hour's lock is over, and for a new link of the same transaction.
    await setLockUntil(t.db, h.transaccion, null);
    await refused();
    const again = await issue('reporte');
    expect((await publicOtp(again.credential)).statusCode).toBe(429);
    expect(await transaction()).toEqual(spent);
  }, 90_000);
});
