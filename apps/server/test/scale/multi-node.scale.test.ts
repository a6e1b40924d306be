import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { faceFrameJpeg, generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../../src/crypto/data-cipher.js';
import { insertEndpoint } from '../../src/features/webhooks/store.js';
import { writeParams } from '../../src/store/grantors.js';
import { AppCaches } from '../../src/caches.js';
import { createDatabase, type Db } from '../../src/store/db.js';
import { waitFor } from '../results/support.js';
import { auditEvent, demoId, lifecycleEvent, trxHeaders } from '../support/fixtures.js';
import { startS3Server, type S3Server } from '../support/s3-server.js';
import { startSmtpReceiver } from '../support/smtp-receiver.js';
import { followsTestSchedule, repeatedReadingsAllowed, testScheduleEnv } from '../support/schedule.js';
import { pdfSample } from '../uploads/samples.js';
import { call, multipart, startNode, startProxy, type NodeProcess, type RoundRobinProxy, type Reply } from './cluster.js';

// Issue 17 item 3: the deployed topology, natively (no container runs on this machine): two API processes and one
// worker process of the built server on one PostgreSQL database (a database of its own, dropped at the end), an
// s3rver bucket and Redis, behind a round-robin proxy; whole verifications through both nodes, then the faults.
const adminUrl = process.env.DATABASE_URL;
const redisUrl = process.env.SCALE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const metricsToken = randomBytes(16).toString('hex');
// Seed 22 puts face fa-s6-b on the INE (as video-token.api.test.ts).
const SEED = 22;

type Headers = ReturnType<typeof trxHeaders>;

/** A lender's webhook receiver: counts what it acknowledged per event id; `hold` keeps the next request unanswered. */
function startReceiver() {
  const acknowledged = new Map<string, number>();
  const arrivals: { id: string; at: number }[] = [];
  let holdNext: ((id: string) => void) | undefined;
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = String((JSON.parse(body) as { id?: unknown }).id);
      arrivals.push({ id, at: Date.now() });
      if (holdNext) {
        const notify = holdNext;
        holdNext = undefined;
        held.push(res);
        notify(id);
        return;
      }
      acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  return {
    server,
    acknowledged,
    arrivals,
    /** Resolves with the event id of the next delivery, which is never answered. */
    holdNext: () => new Promise<string>((resolve) => (holdNext = resolve)),
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)('two API nodes and a worker on PostgreSQL, s3rver and Redis, behind a proxy', () => {
  const dbName = `kyc_scale_${randomBytes(5).toString('hex')}`;
  const dbUrl = (() => {
    const url = new URL(adminUrl ?? 'postgres://localhost/x');
    url.pathname = `/${dbName}`;
    return url.toString();
  })();
  const dataKey = randomBytes(32);
  let dir: string;
  const files = {} as { front: Buffer; back: Buffer; photo: Buffer; video: Buffer; pdf: Buffer };
  let s3: S3Server;
  let proxy: RoundRobinProxy;
  let db: Db;
  const receiver = startReceiver();
  const smtp = startSmtpReceiver();
  const nodes: { a?: NodeProcess; b?: NodeProcess; worker?: NodeProcess } = {};
  let env: Record<string, string>;

  const apiNodes = () => [nodes.a, nodes.b].filter((n): n is NodeProcess => n !== undefined && n.child.exitCode === null && n.child.signalCode === null);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-scale-'));
    await generateFixtureSet({ outDir: dir, seed: SEED, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
    const truth = JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
    const faceId = truth.face!.id;
    const [video] = await Promise.all([writeFaceVideo({ ...followsTestSchedule, faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4' })]);
    files.front = await readFile(path.join(dir, 'ine-000-front-clean.png'));
    files.back = await readFile(path.join(dir, 'ine-000-back-clean.png'));
    files.photo = await faceFrameJpeg(faceId);
    files.video = await readFile(video.video);
    files.pdf = pdfSample();

    await admin(adminUrl!, (c) => c.query(`create database ${dbName}`));
    s3 = await startS3Server();
    const hookUrl = await receiver.start();
    const smtpUrl = await smtp.start();
    env = {
      ...testScheduleEnv,
      DATABASE_URL: dbUrl,
      DATA_ENCRYPTION_KEY: dataKey.toString('base64'),
      ...s3.env,
      REDIS_URL: redisUrl,
      METRICS_TOKEN: metricsToken,
      SMTP_URL: smtpUrl,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      WEB_DIST: path.join(dir, 'no-web'),
      CONSOLE_DIST: path.join(dir, 'no-console'),
      // Per transaction only: Redis is shared with other test runs on this machine, which count per address and key.
      RATE_LIMIT_EVENTS: '12,0,0',
      RATE_LIMIT_UPLOAD: '30,0,0',
      RATE_LIMIT_DOCUMENTS: '60,0,0',
      RATE_LIMIT_CHECKS: '60,0,0',
    };
    // The worker first: it migrates the new database; the API nodes then find it migrated.
    nodes.worker = await startNode('worker', 'worker', env);
    db = createDatabase({ kind: 'postgres', url: dbUrl });
    // Two tries at the back (the default is 3): the attempts test spends them on two nodes with fewer OCR reads.
    // This test's own caches: the nodes are other processes, started after the write.
    // One generated reading of the holder is sent by every verification here (the load is the subject).
    await writeParams({ db, caches: new AppCaches() }, demoId, { INTENTOS_ID_REVERSO: '2', ...repeatedReadingsAllowed });
    [nodes.a, nodes.b] = await Promise.all([startNode('api-a', 'api', env), startNode('api-b', 'api', env)]);
    proxy = await startProxy(apiNodes);
    await insertEndpoint(db, createDataCipher(dataKey), { grantorId: demoId, url: hookUrl, secret: randomBytes(32).toString('base64') });
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([nodes.a?.stop(), nodes.b?.stop(), nodes.worker?.stop()]);
    await db?.destroy().catch(() => undefined);
    await receiver.close();
    await smtp.close();
    await s3?.close();
    if (adminUrl) await admin(adminUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`)).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  /**
   * A call through the proxy as the browser's client makes it: a 502 (the node died), a 503 (busy, storage down)
   * or a cut connection is sent again, after a short wait, up to `tries` times.
   */
  async function send(pathname: string, options: Parameters<typeof call>[1] = {}, tries = 6): Promise<Reply> {
    for (let i = 1; ; i += 1) {
      try {
        const reply = await call(proxy.url + pathname, i === 1 ? options : { ...options, pauseAt: undefined });
        if ((reply.status !== 502 && reply.status !== 503) || i >= tries) return reply;
      } catch (error) {
        if (i >= tries) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const json = (pathname: string, h: Record<string, string>, payload: unknown) =>
    send(pathname, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  const form = (pathname: string, h: Record<string, string>, parts: Parameters<typeof multipart>[0], extra: Parameters<typeof call>[1] = {}) => {
    const { body, contentType } = multipart(parts);
    return send(pathname, { ...extra, method: 'POST', headers: { ...h, ...extra.headers, 'content-type': contentType }, body });
  };
  const expectOk = (reply: Reply, what: string) => expect(reply.status, `${what}: ${reply.text}`).toBe(200);
  const image = (name: string, data: Buffer, type = 'image/png') => ({ name, filename: `${name}.${type.split('/')[1]}`, contentType: type, data });
  const text = (fields: Record<string, string>) => Object.entries(fields).map(([name, value]) => ({ name, value }));
  const secret = { authorization: 'Bearer demo-secret' };
  const transaction = async (h: Headers) => (await send(`/v1/transactions/${h.transaccion}/events`, { headers: secret })).json().payload;

  async function startJourney(): Promise<Headers> {
    const h = trxHeaders();
    expectOk(await send('/v1/params', { headers: h }), 'params');
    for (const paso of ['terminos', 'clausula', 'autorizacion']) {
      const dato = JSON.stringify({ version: '2024-01', sha256: 'a'.repeat(64), userAgent: 'scale' });
      expectOk(await json('/v1/celd_events', h, auditEvent(h, { paso, tipo: 'Aceptación', dato })), `consent ${paso}`);
    }
    return h;
  }
  const readSide = (h: Headers, side: 'front' | 'back', data: Buffer) => form('/v2/ocr', h, [...text({ uuidUser: h.cliente, side }), image('ine', data)]);

  /** A whole verification: consents, both sides of the ID, the face code and the face video, then its end. */
  async function verification(options: { beforeVideo?: (h: Headers) => Promise<void>; beforeEnd?: (h: Headers) => Promise<void>; videoCall?: Parameters<typeof call>[1] } = {}) {
    const h = await startJourney();
    expectOk(await readSide(h, 'front', files.front), 'front');
    expectOk(await readSide(h, 'back', files.back), 'back');
    await options.beforeVideo?.(h);
    const otp = await form('/v1/otp', h, [...text({ uuid: h.cliente }), image('file', files.photo, 'image/jpeg')]);
    expectOk(otp, 'face code');
    const codes = otp.json().payload.codes as { created: string; expire: string };
    const video = await form(
      '/v2/videotoken',
      h,
      [
        ...text({ uuidUser: h.cliente, created: codes.created, expire: codes.expire, originOS: 'android', service_call: 'videotoken-embedding', identificacion_pasaporte: 'false' }),
        { name: 'videotoken', filename: 'video.mp4', contentType: 'video/mp4', data: files.video },
      ],
      options.videoCall,
    );
    expectOk(video, 'face video');
    await options.beforeEnd?.(h);
    const finished = lifecycleEvent(h, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }) });
    expectOk(await json('/v1/update_cycle', h, finished), 'finished');
    return { h, decision: video.json().payload };
  }

  /** Every evidence row with a blob has its object in the bucket: nothing acknowledged was lost. */
  async function everyBlobStored() {
    const rows = await db.selectFrom('evidence').select(['uuid_trx', 'kind', 'blob_key']).where('blob_key', 'is not', null).execute();
    const keys = new Set(await s3.raw.keys());
    return { rows, missing: rows.filter((r) => !keys.has(r.blob_key!)) };
  }

  /** A test that failed midway may leave a node killed: the next one starts it again on its port. */
  async function ensureNodes() {
    const alive = (n: NodeProcess | undefined) => n !== undefined && n.child.exitCode === null && n.child.signalCode === null;
    if (!alive(nodes.worker)) nodes.worker = await startNode('worker', 'worker', env, nodes.worker?.port);
    if (!alive(nodes.a)) nodes.a = await startNode('api-a', 'api', env, nodes.a?.port);
    if (!alive(nodes.b)) nodes.b = await startNode('api-b', 'api', env, nodes.b?.port);
  }

  const scrape = async (node: NodeProcess) => {
    const res = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('a verification through both nodes; an API node killed with SIGKILL mid-upload of the face video: the retry lands on the other node and nothing acknowledged is lost; the worker killed mid-delivery: the webhook is retried by a restarted worker within 15 s, acknowledged once', async () => {
    const first = await verification();
    expect(first.decision).toMatchObject({ match: true });
    expect(new Set(proxy.routed.values()).size + proxy.counts.size).toBeGreaterThan(0);
    expect([...proxy.counts.keys()].sort()).toEqual(['api-a', 'api-b']);

    // The second verification: its face video's node is killed while the video is half sent, and its webhook's
    // delivery is held by the receiver while the worker is killed.
    const held = receiver.holdNext();
    let killed: NodeProcess | undefined;
    const second = await verification({
      videoCall: {
        headers: { 'x-test-call': 'video-2' },
        pauseAt: Math.floor(files.video.length / 2),
        whilePaused: async () => {
          const target = await waitFor(async () => proxy.routed.get('video-2'), 5_000, 20);
          killed = target === 'api-a' ? nodes.a : nodes.b;
          await killed!.kill();
        },
      },
    });
    expect(killed).toBeDefined();
    expect(second.decision).toMatchObject({ match: true });
    // The retried video was decided once: one face-video decision stored for the transaction.
    const decisions = await db.selectFrom('evidence').select('id').where('uuid_trx', '=', second.h.transaccion.toLowerCase()).where('kind', '=', 'video_token').execute();
    expect(decisions).toHaveLength(1);

    const eventId = await held;
    await nodes.worker!.kill();
    const killedAt = Date.now();
    nodes.worker = await startNode('worker', 'worker', env);
    await waitFor(async () => (receiver.acknowledged.get(eventId) ? true : undefined), 20_000, 50);
    const redelivered = receiver.arrivals.filter((a) => a.id === eventId);
    expect(redelivered).toHaveLength(2);
    const retriedAfterMs = redelivered[1]!.at - killedAt;
    console.log(`webhook of the killed worker delivered again ${retriedAfterMs} ms after the kill (restart included)`);
    expect(retriedAfterMs).toBeLessThan(15_000);

    // The killed node comes back on its port; both verifications' webhooks were acknowledged once each.
    const restarted = await startNode(killed!.name, 'api', env, killed!.port);
    if (killed === nodes.a) nodes.a = restarted;
    else nodes.b = restarted;
    await waitFor(async () => (receiver.acknowledged.size >= 2 ? true : undefined), 20_000);
    expect([...receiver.acknowledged.values()]).toEqual([1, 1]);

    const { rows, missing } = await everyBlobStored();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(missing).toEqual([]);
  }, 420_000);

  it('the worker killed while it sends the result e-mail (the SMTP server never answers its DATA): a restarted worker sends it again with the same Message-ID, accepted once', async () => {
    await ensureNodes();
    const held = smtp.holdNext();
    // The flow asks for the e-mail on its last screen, before it reports the end.
    const { h } = await verification({
      beforeEnd: async (h) => {
        const body = { uuidUser: h.cliente, custom_uuid: 'scale-mail', tipo_envio: 'COMPLETO', semaforo: 'green', name: 'Ana', email: 'ana@correo.example' };
        expectOk(await json('/v1/async_zip_nom_151_correo', { ...h, ...secret }, body), 'result e-mail');
      },
    });
    const messageId = await held;
    expect(messageId).toMatch(/^<.+@kyc-onboarding>$/);
    await nodes.worker!.kill();
    const killedAt = Date.now();
    nodes.worker = await startNode('worker', 'worker', env);
    await waitFor(async () => (smtp.acceptedCount(messageId) > 0 ? true : undefined), 30_000, 50);
    const sends = smtp.arrivals.filter((a) => a.messageId === messageId);
    console.log(`result e-mail of the killed worker sent again ${sends[1]!.at - killedAt} ms after the kill (restart included)`);
    // At least once, and here exactly once: the message the killed worker never had accepted is not delivered.
    expect(sends.map((a) => a.accepted)).toEqual([false, true]);
    expect(sends[1]!.to).toEqual(['ana@correo.example']);
    const jobs = await db.selectFrom('jobs').select(['state', 'attempts']).where('uuid_trx', '=', h.transaccion.toLowerCase()).where('kind', '=', 'correo_resultado').execute();
    expect(jobs).toEqual([{ state: 'done', attempts: expect.any(Number) }]);
    // No other message was sent for the transaction afterwards (the job is not run a third time).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(smtp.arrivals.filter((a) => a.messageId === messageId)).toHaveLength(2);
  }, 300_000);

  it('attempts and the lock hold across nodes; the abuse limits count in Redis for both nodes', async () => {
    await ensureNodes();
    const h = await startJourney();
    expectOk(await readSide(h, 'front', files.front), 'front');
    // Straight to each node: the front shown again as the back is refused on A, and B sees the attempt it spent;
    // refused again on B, the last of the two attempts locks the transaction, and A refuses the real back unread.
    const direct = (node: NodeProcess, side: 'front' | 'back', data: Buffer) => {
      const { body, contentType } = multipart([...text({ uuidUser: h.cliente, side }), image('ine', data)]);
      return call(`${node.url}/v2/ocr`, { method: 'POST', headers: { ...h, 'content-type': contentType }, body });
    };
    const attemptsOn = async (node: NodeProcess) => (await call(`${node.url}/v1/transactions/${h.transaccion}/events`, { headers: secret })).json().payload.transaction;
    expect((await direct(nodes.a!, 'back', files.front)).status).toBe(422);
    expect((await attemptsOn(nodes.b!)).attempts).toEqual({ id_reverso: 1 });
    const last = await direct(nodes.b!, 'back', files.front);
    expect(last.status, last.text).toBe(429);
    expect((await attemptsOn(nodes.a!)).attempts).toEqual({ id_reverso: 2 });
    const locked = await direct(nodes.a!, 'back', files.back);
    expect(locked.status, locked.text).toBe(429);
    expect(locked.json().locked_until).toBeTruthy();
    expect((await attemptsOn(nodes.b!)).lockedUntil).toBeTruthy();

    // 12 events per transaction, counted in Redis: the calls alternate nodes and the 13th is refused.
    const other = trxHeaders();
    expectOk(await send('/v1/params', { headers: other }), 'params');
    const events: number[] = [];
    for (let i = 0; i < 13; i += 1) events.push((await json('/v1/celd_events', other, auditEvent(other))).status);
    expect(events.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(events[12]).toBe(429);
  }, 300_000);

  it('PostgreSQL connections of the test database terminated: every node recovers; s3rver stopped: 503 with nothing stored, then the same upload goes through', async () => {
    await ensureNodes();
    const terminated = await admin(adminUrl!, (c) =>
      c.query<{ pid: number }>('select pg_terminate_backend(pid) as ok, pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]),
    );
    expect(terminated.rowCount).toBeGreaterThan(0);
    for (const node of [nodes.a!, nodes.b!, nodes.worker!]) {
      await waitFor(async () => ((await fetch(`${node.url}/readyz`)).ok ? true : undefined), 60_000, 100).catch(() => {
        throw new Error(`${node.name} did not recover: ${node.output()}`);
      });
      expect(node.child.exitCode).toBeNull();
    }
    const h = await startJourney();
    expectOk(await readSide(h, 'front', files.front), 'front after the database reconnect');

    const withBlob = async () => (await db.selectFrom('evidence').select('blob_key').where('blob_key', 'is not', null).execute()).length;
    const before = await withBlob();
    await s3.stop();
    try {
      const refused = await call(
        `${proxy.url}/v1/file`,
        (() => {
          const { body, contentType } = multipart([...text({ uuid: h.cliente, folder: `${demoId}/${h.cliente}/domicilio` }), image('file', files.pdf, 'application/pdf')]);
          return { method: 'POST', headers: { ...h, 'content-type': contentType }, body };
        })(),
      );
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(await withBlob()).toBe(before);
    } finally {
      await s3.start();
    }
    const stored = await form('/v1/file', h, [...text({ uuid: h.cliente, folder: `${demoId}/${h.cliente}/domicilio` }), image('file', files.pdf, 'application/pdf')]);
    expectOk(stored, 'the proof once the bucket is back');
    expect((await everyBlobStored()).missing).toEqual([]);
  }, 300_000);

  it('/metrics of each node: every API node timed its routes; the worker counted the webhook jobs it ran; the engine queue is exposed', async () => {
    await ensureNodes();
    const [a, b, worker] = await Promise.all([scrape(nodes.a!), scrape(nodes.b!), scrape(nodes.worker!)]);
    for (const text of [a, b]) {
      expect(text).toMatch(/kyc_http_request_duration_seconds_count\{method="POST",route="\/v2\/ocr",status_class="[24]xx"\} \d+/);
      expect(text).toMatch(/kyc_engine_queued\{engine="(ocr|face)"\} \d+/);
    }
    expect(worker).toMatch(/kyc_jobs_finished_total\{kind="webhook",outcome="done"\} [1-9]/);
    expect(worker).toMatch(/kyc_jobs_due\{kind="webhook"\} 0|kyc_jobs_due /);
  });
});
