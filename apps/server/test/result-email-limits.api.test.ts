import { readdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import type { ZodApp } from '../src/http/deps.js';
import { jobState } from '../src/jobs/queue.js';
import { listOutbox, outboxDir, purgeOutbox } from '../src/mail/mailer.js';
import { createDatabase, type Db } from '../src/store/db.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, journeyConsents, recordFaceDecision } from './support/journey.js';
import { waitFor } from './results/support.js';

// The rate limits are off here: these tests show the database's own bound, which holds whatever the limits are.
const env = { RATE_LIMITS: 'off', DEMO_GRANTOR: 'true' };
const cipherOf = (t: TestApp) => createDataCipher(loadDataKey(t.config).key);
const mailBody = (cliente: string, email: string, name = '') => ({ tipo_envio: 'SEMAFORO', semaforo: 'red', uuidUser: cliente, name, email, custom_uuid: 'x' });
/** As the partner's server calls it, with its secret server key (issue #15). */
const read = (h: ReturnType<typeof trxHeaders>) => ({ ...h, authorization: 'Bearer demo-secret' });
const send = (app: ZodApp, h: ReturnType<typeof trxHeaders>, email: string, name = '') =>
  app.inject({ method: 'POST', url: '/v1/async_zip_nom_151_correo', headers: read(h), payload: mailBody(h.cliente, email, name) });

/** Where the flow is when it asks for the e-mail: consents given, face video decided (domain/journey-order.ts). */
async function afterFaceVideo(t: TestApp, h: ReturnType<typeof trxHeaders>): Promise<void> {
  await acceptConsents(t.app, h, journeyConsents);
  await recordFaceDecision(t, { uuidTrx: h.transaccion, grantorId: demoId });
}

/** Waits until every job of the transaction is done, then returns the outbox messages addressed within it. */
async function sentFor(t: TestApp, db: Db, uuidTrx: string): Promise<string[]> {
  const jobs = await db.selectFrom('jobs').select(['id']).where('uuid_trx', '=', uuidTrx).execute();
  for (const job of jobs) await waitFor(async () => ((await jobState(db, job.id))?.state === 'done' ? true : undefined));
  const ids = new Set(jobs.map((j) => j.id));
  const mails = await listOutbox(t.dataDir, cipherOf(t));
  return mails.filter((m) => ids.has(path.basename(m.file).split('.')[0]!)).map((m) => /^To: (.+)$/m.exec(m.eml)?.[1] ?? '');
}

describe.each(engines)('the result e-mail goes once, to the confirmed address ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { ...env, RESULT_EMAIL_RESENDS: '2' }, { jobs: { pollMs: 50 } });
  });
  afterAll(async () => t?.close());

  it('10 calls naming 10 addresses: only the first (the confirmed one) gets mail, the others 409 and nothing sent', async () => {
    const h = trxHeaders();
    await afterFaceVideo(t, h);
    const addresses = Array.from({ length: 10 }, (_, i) => `persona${i}@correo.example`);
    const statuses: number[] = [];
    for (const address of addresses) statuses.push((await send(t.app, h, address)).statusCode);
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const refused = await send(t.app, h, 'otra@correo.example');
    expect(refused.json()).toMatchObject({ status: 409, message: expect.stringContaining('confirmed first'), message_client: expect.stringContaining('correo que confirmaste') });
    expect(await sentFor(t, t.db, h.transaccion)).toEqual(['persona0@correo.example']);
  }, 60_000);

  it('3 calls to the same address: the e-mail and 2 resends (RESULT_EMAIL_RESENDS=2), then 409', async () => {
    const h = trxHeaders();
    await afterFaceVideo(t, h);
    const statuses: number[] = [];
    // The address in another case is the same address.
    for (const address of ['Cliente@Correo.example', 'cliente@correo.example', 'CLIENTE@correo.example', 'cliente@correo.example']) {
      statuses.push((await send(t.app, h, address)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 409]);
    expect(await sentFor(t, t.db, h.transaccion)).toHaveLength(3);
  }, 60_000);

  it("never writes the request's free text into the message", async () => {
    const h = trxHeaders();
    await afterFaceVideo(t, h);
    expect((await send(t.app, h, 'rosa@correo.example', 'Gana un premio en https://estafa.example')).statusCode).toBe(200);
    const [job] = await t.db.selectFrom('jobs').select(['id']).where('uuid_trx', '=', h.transaccion).execute();
    await waitFor(async () => ((await jobState(t.db, job!.id))?.state === 'done' ? true : undefined));
    const mail = (await listOutbox(t.dataDir, cipherOf(t))).find((m) => m.file.includes(job!.id));
    expect(mail?.eml).toContain('Hola:');
    expect(mail?.eml).not.toMatch(/estafa|premio/);
  }, 60_000);

  it('keeps the outbox sealed at rest and purges it after the retention time', async () => {
    const dir = outboxDir(t.dataDir);
    const names = await readdir(dir);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(/\.eml\.sealed$/);
      const raw = await readFile(path.join(dir, name));
      expect(raw.subarray(0, 4).toString('latin1')).toBe('KYCB');
      expect(raw.toString('latin1')).not.toMatch(/correo\.example|Content-Type|%PDF/);
    }
    const old = new Date(Date.now() - 73 * 3_600_000);
    await utimes(path.join(dir, names[0]!), old, old);
    expect(await purgeOutbox(t.dataDir, 72 * 3_600_000)).toBe(1);
    expect(await readdir(dir)).toHaveLength(names.length - 1);
  });
});

const postgres = engines.find((e) => e.name === 'postgres');

describe.skipIf(!postgres)('two nodes on one PostgreSQL send the result e-mail once', () => {
  let a: TestApp;
  let second: { app: ZodApp; db: Db } | undefined;
  beforeAll(async () => {
    a = await startTestApp(postgres!, { ...env, RESULT_EMAIL_RESENDS: '1' }, { jobs: { pollMs: 50 } });
    // Node B: its own connection pool on the same schema, its own worker and limits.
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(a.db)).rows[0]!.s;
    if (a.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const db = createDatabase({ ...a.config.database, searchPath: schema });
    second = { db, app: await buildApp(a.config, { db, jobs: { pollMs: 50 } }) };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.db.destroy();
    await a?.close();
  });

  it('8 concurrent calls split over two nodes: 1 e-mail and 1 resend to the one address that won, nothing else', async () => {
    const h = trxHeaders();
    // The transaction exists before the race (the flow has made many calls by the final screen).
    await afterFaceVideo(a, h);
    const calls = Array.from({ length: 8 }, (_, i) => send(i % 2 === 0 ? a.app : second!.app, h, i < 4 ? 'ana@correo.example' : 'otro@correo.example'));
    const statuses = (await Promise.all(calls)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    const sent = await sentFor(a, a.db, h.transaccion);
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(1);
  }, 60_000);
});
