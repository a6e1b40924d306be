import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, type BlobStore } from '../src/blob/index.js';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey, type DataCipher } from '../src/crypto/data-cipher.js';
import { recordCaseIdentity } from '../src/features/console/case-index.js';
import { insertLifecycleEvent } from '../src/features/events/store.js';
import { eraseTransaction, rowHash } from '../src/features/retention/erase.js';
import { defaultRetentionPolicy, policyProblem, writePolicy } from '../src/features/retention/policy.js';
import { executeRequest, placeHold } from '../src/features/retention/requests.js';
import { retentionSweepJobKind, runRetentionSweep } from '../src/features/retention/sweep.js';
import { emailJobKind, type EmailJobPayload } from '../src/features/results/email-job.js';
import { listEndpointDeliveries } from '../src/features/webhooks/deliveries.js';
import { enqueueWebhookEvent } from '../src/features/webhooks/events.js';
import { generateWebhookSecret } from '../src/features/webhooks/signing.js';
import { insertEndpoint, listDeliveries } from '../src/features/webhooks/store.js';
import { enqueueJob, jobState } from '../src/jobs/queue.js';
import { listOutbox } from '../src/mail/mailer.js';
import { addEvidence } from '../src/store/evidence.js';
import { insertTransactionIfAbsent } from '../src/store/transactions.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, trxHeaders } from './support/fixtures.js';
import { waitFor } from './results/support.js';

const day = 86_400_000;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const secret = { authorization: 'Bearer demo-secret' };

interface Seeded {
  uuidTrx: string;
  uuidUser: string;
  /** evidence kind -> { id, key, sha256 of the plaintext } */
  media: Map<string, { id: string; key: string; sha256: string }>;
}

describe.each(engines)('retention and data-subject requests ($name)', (engine) => {
  let t: TestApp;
  let cipher: DataCipher;
  let blobs: BlobStore;
  let grantorId: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' }, { jobs: { pollMs: 50, backoffMs: 100 } });
    cipher = createDataCipher(loadDataKey(t.config).key);
    blobs = createBlobStore(t.config, cipher);
    grantorId = demoId;
    // The worker's own first sweep (queued at start) has run, so the tests' sweeps are the only ones on their data.
    await waitFor(async () => {
      const rows = await t.db.selectFrom('jobs').select('state').where('kind', '=', retentionSweepJobKind).execute();
      return rows.some((r) => r.state === 'done') ? true : undefined;
    }, 20_000);
  });
  afterAll(async () => {
    blobs?.close();
    await t?.close();
  });

  /** A transaction whose last activity and captures are `ageDays` old, of a grantor of its own unless given. */
  async function seed(ageDays: number, options: { grantor?: string; curp?: string } = {}): Promise<Seeded> {
    const at = new Date(Date.now() - ageDays * day);
    const g = options.grantor ?? grantorId;
    const uuidTrx = randomUUID();
    const uuidUser = randomUUID();
    await insertTransactionIfAbsent(t.db, { uuidTrx, uuidUser, grantorId: g }, at);
    const media = new Map<string, { id: string; key: string; sha256: string }>();
    for (const kind of ['ocr_frente', 'rostro_identificacion', 'video_token', 'comprobante_domicilio']) {
      const bytes = randomBytes(64);
      const key = `${g}/${uuidUser}/${kind}/${uuidTrx}.bin`;
      const stored = await blobs.put(key, bytes, { contentType: 'application/octet-stream' });
      const id = await addEvidence(t.db, cipher, { uuidTrx, grantorId: g, kind, blobKey: stored.key, sha256: stored.sha256, payload: { read: 'x' } }, at);
      media.set(kind, { id, key, sha256: sha(bytes) });
    }
    await addEvidence(t.db, cipher, { uuidTrx, grantorId: g, kind: 'consentimiento', payload: { consent: 'terminos' } }, at);
    await insertLifecycleEvent(t.db, cipher, { uuidTrx, grantorId: g, step: 'terminos', payload: { nombreCompleto: 'María Núñez' } }, at);
    if (options.curp) await recordCaseIdentity(t.db, cipher, { uuidTrx, grantorId: g, name: 'María Núñez', curp: options.curp }, at);
    return { uuidTrx, uuidUser, media };
  }

  async function newGrantor(): Promise<string> {
    const id = randomUUID();
    await t.db
      .insertInto('grantors')
      .values({ id, name: 'Retención', apikey_hash: randomUUID(), apikey_prefix: 'ret', active: 1, launcher_any_origin: 1, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .execute();
    return id;
  }

  const tombstones = (uuidTrx: string) => t.db.selectFrom('retention_tombstones').selectAll().where('uuid_trx', '=', uuidTrx).execute();
  const evidenceOf = (uuidTrx: string) => t.db.selectFrom('evidence').selectAll().where('uuid_trx', '=', uuidTrx).execute();
  const sweepAll = () => runRetentionSweep({ db: t.db, blobs }, new Date(), { media: 10_000, transactions: 10_000 });

  it('the sweep deletes exactly the expired biometric media, keeps a tombstone with the right hash, and a rerun deletes nothing', async () => {
    const g = await newGrantor();
    await writePolicy(t.db, g, { biometricDays: 30, fileYears: 10 }, 'test');
    const old = await seed(31, { grantor: g });
    const fresh = await seed(29, { grantor: g });

    const first = await sweepAll();
    expect(first.media).toBeGreaterThanOrEqual(3);

    const stones = await tombstones(old.uuidTrx);
    expect(stones.map((s) => s.kind).sort()).toEqual(['ocr_frente', 'rostro_identificacion', 'video_token']);
    for (const s of stones) {
      const original = old.media.get(s.kind)!;
      expect(s).toMatchObject({ id: `media:${original.id}`, sha256: original.sha256, blob_key: original.key, reason: 'policy_biometric', grantor_id: g });
      expect(await blobs.exists(original.key)).toBe(false);
    }
    // The proof of address is not biometric: kept, as is every row (what was read stays with the file).
    expect(await blobs.exists(old.media.get('comprobante_domicilio')!.key)).toBe(true);
    const rows = await evidenceOf(old.uuidTrx);
    expect(rows).toHaveLength(5);
    expect(
      rows
        .filter((r) => r.blob_key === null && r.kind !== 'consentimiento')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['ocr_frente', 'rostro_identificacion', 'video_token']);
    // 29 days under a 30-day policy: untouched.
    expect(await tombstones(fresh.uuidTrx)).toHaveLength(0);
    for (const m of fresh.media.values()) expect(await blobs.exists(m.key)).toBe(true);

    const again = await sweepAll();
    expect(again).toEqual({ media: 0, transactions: 0, more: false });
    expect(await tombstones(old.uuidTrx)).toHaveLength(3);
  });

  it('files past their years are erased with a tombstone per item; held ones and younger ones are kept; reads answer 410', async () => {
    const g = await newGrantor();
    await writePolicy(t.db, g, { biometricDays: 90, fileYears: 5 }, 'test');
    const expired = await seed(5 * 366, { grantor: g });
    const held = await seed(5 * 366, { grantor: g });
    const young = await seed(4 * 365, { grantor: g });
    await placeHold(t.db, { uuidTrx: held.uuidTrx, reason: 'juicio 123/2026', placedBy: 'legal' });

    await sweepAll();

    expect(await evidenceOf(expired.uuidTrx)).toHaveLength(0);
    expect(await t.db.selectFrom('lifecycle_events').select('id').where('uuid_trx', '=', expired.uuidTrx).execute()).toHaveLength(0);
    const stones = await tombstones(expired.uuidTrx);
    const byKind = new Map(stones.filter((s) => s.id.startsWith('evidence:')).map((s) => [s.kind, s]));
    expect(byKind.get('comprobante_domicilio')).toMatchObject({ sha256: expired.media.get('comprobante_domicilio')!.sha256, reason: 'policy_file' });
    expect(byKind.has('consentimiento')).toBe(true);
    expect(stones.filter((s) => s.kind === 'lifecycle_events')).toHaveLength(1);
    for (const m of expired.media.values()) expect(await blobs.exists(m.key)).toBe(false);
    const trx = await t.db.selectFrom('transactions').selectAll().where('uuid_trx', '=', expired.uuidTrx).executeTakeFirstOrThrow();
    expect(trx.erased_at).not.toBeNull();

    // Held: its media are past 90 days too, and still nothing of it is deleted.
    expect(await tombstones(held.uuidTrx)).toHaveLength(0);
    expect(await evidenceOf(held.uuidTrx)).toHaveLength(5);
    for (const m of held.media.values()) expect(await blobs.exists(m.key)).toBe(true);
    // Four years: the file stays, only its biometric media went.
    expect(await evidenceOf(young.uuidTrx)).toHaveLength(5);
    expect(await blobs.exists(young.media.get('video_token')!.key)).toBe(false);
    expect(await blobs.exists(young.media.get('comprobante_domicilio')!.key)).toBe(true);

    const demoTrx = await seed(1);
    await t.db.updateTable('transactions').set({ erased_at: new Date().toISOString() }).where('uuid_trx', '=', demoTrx.uuidTrx).execute();
    const gone = await t.app.inject({ method: 'GET', url: `/v1/transactions/${demoTrx.uuidTrx}/events`, headers: secret });
    expect(gone.statusCode).toBe(410);
  });

  it('an erase interrupted after its tombstones and blobs completes on a rerun without failing or counting twice', async () => {
    const s = await seed(1);
    const before = await evidenceOf(s.uuidTrx);
    // As if a first run died after deleting the blobs: they are gone, the rows are still there.
    for (const m of s.media.values()) await blobs.delete(m.key);
    await eraseTransaction({ db: t.db, blobs }, { uuidTrx: s.uuidTrx, grantorId }, 'request', new Date());
    const stones = await tombstones(s.uuidTrx);
    await eraseTransaction({ db: t.db, blobs }, { uuidTrx: s.uuidTrx, grantorId }, 'request', new Date());
    expect(await tombstones(s.uuidTrx)).toHaveLength(stones.length);
    expect(await evidenceOf(s.uuidTrx)).toHaveLength(0);
    const consent = before.find((r) => r.kind === 'consentimiento')!;
    expect(stones.find((x) => x.id === `evidence:${consent.id}`)?.sha256).toBe(rowHash(consent as unknown as Record<string, unknown>));
  });

  it('a bounded run leaves the rest for the next one and says so', async () => {
    const g = await newGrantor();
    await writePolicy(t.db, g, { biometricDays: 1, fileYears: 10 }, 'test');
    await seed(2, { grantor: g });
    // Other tests' grantors may have expired media too: bound to 1 so that this grantor's 3 cannot all fit.
    const run = await runRetentionSweep({ db: t.db, blobs }, new Date(), { media: 1, transactions: 0 });
    expect(run).toMatchObject({ media: 1, more: true });
  });

  it('a delete request by folio erases the transaction and is logged with who asked', async () => {
    const s = await seed(1);
    const outcome = await executeRequest(
      { db: t.db, blobs, cipher },
      { grantorId, action: 'delete', subject: { kind: 'folio', folio: s.uuidTrx.toUpperCase() }, requestedBy: 'privacidad@financiera.example', basis: 'ARCO 2026-17' },
    );
    expect(outcome).toMatchObject({ status: 'done', done: [s.uuidTrx], refused: [] });
    for (const m of s.media.values()) expect(await blobs.exists(m.key)).toBe(false);
    expect(await evidenceOf(s.uuidTrx)).toHaveLength(0);
    expect((await tombstones(s.uuidTrx)).every((x) => x.reason === 'request' && x.request_id === outcome.id)).toBe(true);
    const logged = await t.db.selectFrom('retention_requests').selectAll().where('id', '=', outcome.id).executeTakeFirstOrThrow();
    expect(logged).toMatchObject({ action: 'delete', subject_kind: 'folio', subject: s.uuidTrx, requested_by: 'privacidad@financiera.example', basis: 'ARCO 2026-17', status: 'done' });
    const audit = await t.db.selectFrom('console_audit').selectAll().where('action', '=', 'data_subject_request').execute();
    expect(audit.some((a) => JSON.parse(a.detail).requestId === outcome.id)).toBe(true);
    // Another grantor's folio is not found for this grantor.
    const other = await newGrantor();
    expect((await executeRequest({ db: t.db, blobs, cipher }, { grantorId: other, action: 'delete', subject: { kind: 'folio', folio: randomUUID() }, requestedBy: 'x', basis: 'y' })).status).toBe(
      'not_found',
    );
  });

  it('a delete request by CURP finds every case through the blind index, refuses the held one with its reason, and stores no CURP', async () => {
    const curp = 'NUZM900101MDFXXR09';
    const a = await seed(1, { curp });
    const b = await seed(1, { curp: curp.toLowerCase() });
    const other = await seed(1, { curp: 'OTRA900101HDFXXR01' });
    await placeHold(t.db, { uuidTrx: b.uuidTrx, reason: 'requerimiento de autoridad', placedBy: 'legal' });
    const outcome = await executeRequest(
      { db: t.db, blobs, cipher },
      { grantorId, action: 'delete', subject: { kind: 'curp', curp }, requestedBy: 'oficial de privacidad', basis: 'solicitud de cancelación' },
    );
    expect(outcome.status).toBe('partial');
    expect(outcome.done).toEqual([a.uuidTrx]);
    expect(outcome.refused).toEqual([{ uuidTrx: b.uuidTrx, reason: 'legal hold: requerimiento de autoridad' }]);
    expect(await evidenceOf(a.uuidTrx)).toHaveLength(0);
    expect(await evidenceOf(b.uuidTrx)).toHaveLength(5);
    expect(await evidenceOf(other.uuidTrx)).toHaveLength(5);
    const logged = await t.db.selectFrom('retention_requests').selectAll().where('id', '=', outcome.id).executeTakeFirstOrThrow();
    expect(logged.subject).not.toContain('NUZM');
    expect(logged.status).toBe('partial');
    await expect(executeRequest({ db: t.db, blobs, cipher }, { grantorId, action: 'delete', subject: { kind: 'curp', curp: 'short' }, requestedBy: 'x', basis: 'y' })).rejects.toThrow(/18 letters/);
  });

  it('a blocked transaction refuses its events, documents and further captures with 451 and stores nothing', async () => {
    const headers = trxHeaders();
    const s = { uuidTrx: headers.transaccion, uuidUser: headers.cliente };
    expect((await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) })).statusCode).toBe(200);
    await addEvidence(t.db, cipher, { uuidTrx: s.uuidTrx, grantorId, kind: 'consentimiento', payload: { consent: 'terminos' } });
    expect((await t.app.inject({ method: 'GET', url: `/v1/transactions/${s.uuidTrx}/events`, headers: secret })).statusCode).toBe(200);
    const outcome = await executeRequest({ db: t.db, blobs, cipher }, { grantorId, action: 'block', subject: { kind: 'folio', folio: s.uuidTrx }, requestedBy: 'privacidad', basis: 'oposición' });
    expect(outcome.status).toBe('done');

    const events = await t.app.inject({ method: 'GET', url: `/v1/transactions/${s.uuidTrx}/events`, headers: secret });
    expect(events.statusCode).toBe(451);
    expect(events.json()).toMatchObject({ message_client: 'Los datos de este proceso están bloqueados a petición de su titular.' });
    const documents = await t.app.inject({ method: 'POST', url: '/v1/proccessdocuments', headers: { ...headers, ...secret }, payload: { uuidUser: s.uuidUser } });
    expect(documents.statusCode).toBe(451);
    const cycle = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers, payload: lifecycleEvent(headers) });
    expect(cycle.statusCode).toBe(451);
    expect(await t.db.selectFrom('lifecycle_events').select('id').where('uuid_trx', '=', s.uuidTrx).execute()).toHaveLength(1);
    // Blocking deletes nothing.
    expect(await evidenceOf(s.uuidTrx)).toHaveLength(1);
  });

  it('a webhook delivery and the result e-mail queued for a blocked transaction are dropped, never sent', async () => {
    const hits: string[] = [];
    const receiver = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const g = await newGrantor();
      const endpointId = await insertEndpoint(t.db, cipher, { grantorId: g, url, secret: generateWebhookSecret() });
      const s = await seed(0, { grantor: g });
      await executeRequest({ db: t.db, blobs, cipher }, { grantorId: g, action: 'block', subject: { kind: 'folio', folio: s.uuidTrx }, requestedBy: 'privacidad', basis: 'oposición' });
      // Queued as if the finishing event had been recorded just before the block reached this node.
      await enqueueWebhookEvent(t.db, cipher, { grantorId: g, uuidTrx: s.uuidTrx, type: 'verification.completed', data: { uuidTrx: s.uuidTrx } });
      const mailPayload = {
        uuidTrx: s.uuidTrx,
        uuidUser: s.uuidUser,
        grantorId: g,
        grantorName: 'Retención',
        email: 'persona@correo.example',
        name: '',
        flag: 'GREEN',
        tipo_envio: 'SEMAFORO',
        semaforo: 'green',
        customId: 'x',
        clientCustomId: 'x',
      } satisfies EmailJobPayload;
      const mailJob = await enqueueJob(t.db, cipher, { kind: emailJobKind, uuidTrx: s.uuidTrx, payload: mailPayload });
      const jobs = await t.db.selectFrom('jobs').select('id').where('uuid_trx', '=', s.uuidTrx).execute();
      expect(jobs).toHaveLength(2);
      for (const job of jobs) await waitFor(async () => ((await jobState(t.db, job.id))?.state === 'done' ? true : undefined));

      expect(hits).toEqual([]);
      const [delivery] = await listDeliveries(t.db, endpointId);
      expect(delivery).toMatchObject({ statusCode: null, error: expect.stringContaining('blocked') });
      const { deliveries } = await listEndpointDeliveries(t.db, endpointId, { limit: 5 });
      expect(deliveries.map((d) => d.status)).toEqual(['dropped']);
      const mails = await listOutbox(t.dataDir, cipher);
      expect(mails.filter((m) => m.file.includes(mailJob))).toEqual([]);
    } finally {
      receiver.close();
    }
  });

  it('the worker keeps one sweep scheduled: a run queues the next about an hour later', async () => {
    const done = await waitFor(async () => {
      const rows = await t.db.selectFrom('jobs').selectAll().where('kind', '=', retentionSweepJobKind).execute();
      return rows.some((r) => r.state === 'done') ? rows : undefined;
    }, 20_000);
    const pending = done.filter((r) => r.state === 'pending');
    expect(pending).toHaveLength(1);
    expect(Date.parse(pending[0]!.run_at) - Date.now()).toBeGreaterThan(50 * 60_000);
  });

  it('the CLI sets a validated policy, places a hold, and files a request', async () => {
    const run = async (argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runGrantorCommand(
        t,
        argv,
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        undefined,
        () => cipher,
        () => createBlobStore(t.config, cipher),
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const g = await newGrantor();
    expect((await run(['retention-policy', g])).out).toContain(`${defaultRetentionPolicy.biometricDays} days after capture (default)`);
    const bad = await run(['retention-policy', g, '--biometric-days', '4000']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/biometric days/);
    expect((await run(['retention-policy', g, '--file-years', '1', '--biometric-days', '400'])).err).toMatch(/longer than the file/);
    expect((await run(['retention-policy', g, '--biometric-days', '60', '--file-years', '7'])).out).toContain('60 days after capture\n');
    expect(policyProblem({ biometricDays: 60, fileYears: 7 })).toBeNull();

    const s = await seed(1);
    expect((await run(['hold-place', s.uuidTrx])).code).toBe(2);
    expect((await run(['hold-place', s.uuidTrx, '--reason', 'litigio'])).code).toBe(0);
    const refused = await run(['retention-request', grantorId, '--action', 'delete', '--folio', s.uuidTrx, '--by', 'dpo', '--basis', 'ARCO 1']);
    expect(refused.out).toContain('refused');
    expect(refused.out).toContain('legal hold: litigio');
    expect((await run(['retention-request', grantorId, '--action', 'erase', '--folio', s.uuidTrx, '--by', 'dpo', '--basis', 'b'])).code).toBe(2);
    expect((await run(['hold-release', s.uuidTrx])).code).toBe(0);
    const deleted = await run(['retention-request', grantorId, '--action', 'delete', '--folio', s.uuidTrx, '--by', 'dpo', '--basis', 'ARCO 1']);
    expect(deleted.out).toContain(`deleted  ${s.uuidTrx}`);
    expect((await run(['retention-requests', grantorId])).out).toMatch(/delete by folio {2}refused {2}asked by dpo/);
  });
});
