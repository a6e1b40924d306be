import { errorTexts } from '@kyc/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OcrEngineProvider } from '../src/engines/ocr/provider.js';
import { engines, startSecondNode, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';
import { acceptConsents, usableFront } from './support/journey.js';
import { multipartBody } from './uploads/samples.js';

/**
 * Attempts hold under concurrency (issue #15 item 4): 8 ID reads of one transaction at once, with
 * INTENTOS_ID_FRONTAL at 3, run exactly 3 reads on the engine, on one node and on two nodes sharing PostgreSQL.
 * The image is a photo of an empty table: each read that runs fails and counts, as a person's bad photos would.
 */

type Headers = ReturnType<typeof trxHeaders>;
let blank: Buffer;

beforeAll(async () => {
  blank = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#202124' } })
    .png()
    .toBuffer();
});

/** The real engine, counting the reads that reach it. */
function counting(reads: { count: number }) {
  return (provider: OcrEngineProvider): OcrEngineProvider => ({
    get: () => provider.get(),
    status: () => provider.status(),
    queued: () => provider.queued(),
    close: () => provider.close(),
    withSlot: (run) =>
      provider.withSlot((engine) => {
        reads.count += 1;
        return run(engine);
      }),
  });
}

/** An engine that is down: every read throws as a crashed worker would. */
function failing(reads: { count: number }) {
  return (provider: OcrEngineProvider): OcrEngineProvider => ({
    get: () => provider.get(),
    status: () => provider.status(),
    queued: () => provider.queued(),
    close: () => provider.close(),
    withSlot: async () => {
      reads.count += 1;
      throw new Error('the OCR worker died');
    },
  });
}

function ocrRequest(headers: Headers) {
  const { payload, contentType } = multipartBody([
    { name: 'uuidUser', value: headers.cliente },
    { name: 'side', value: 'front' },
    { name: 'originOS', value: 'android' },
    { name: 'ine', filename: 'front.png', contentType: 'image/png', data: blank },
  ]);
  return { method: 'POST' as const, url: '/v2/ocr', headers: { ...headers, 'content-type': contentType }, payload };
}

function proofRequest(headers: Headers) {
  const { payload, contentType } = multipartBody([
    { name: 'folder', value: `${demoId}/${headers.cliente}/domicilio` },
    { name: 'uuid', value: headers.cliente },
    { name: 'file', filename: 'comprobante.png', contentType: 'image/png', data: blank },
  ]);
  return { method: 'POST' as const, url: '/v1/file', headers: { ...headers, 'content-type': contentType }, payload };
}

async function transactionState(t: TestApp, uuidTrx: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/transactions/${uuidTrx}/events`, headers: { authorization: 'Bearer demo-secret' } });
  return res.json().payload as { transaction: { attempts: Record<string, number>; lockedUntil: string | null }; evidence?: Array<{ kind: string }> };
}

function expectThreeRan(statuses: number[], reads: number) {
  expect(reads).toBe(3);
  // Two counted failures (422), the third uses the last attempt (429 after the read), five refused (429).
  expect(statuses.filter((s) => s === 422)).toHaveLength(2);
  expect(statuses.filter((s) => s === 429)).toHaveLength(6);
}

describe.each(engines)('attempts under concurrency ($name)', (engine) => {
  const reads = { count: 0 };
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { wrapOcr: counting(reads) });
  }, 60_000);
  afterAll(async () => t?.close());

  it('8 concurrent ID reads with INTENTOS_ID_FRONTAL 3 run exactly 3 on one node', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    reads.count = 0;
    const replies = await Promise.all(Array.from({ length: 8 }, () => t.app.inject(ocrRequest(headers))));
    const statuses = replies.map((r) => r.statusCode);
    expectThreeRan(statuses, reads.count);
    for (const reply of replies) expect(reply.json().message_client).not.toBe(errorTexts.serviceUnavailable);
    const state = await transactionState(t, headers.transaccion);
    expect(state.transaction.attempts).toEqual({ id_frontal: 3 });
    expect(Date.parse(state.transaction.lockedUntil ?? '')).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect((state.evidence ?? []).filter((e) => e.kind === 'ocr_frente')).toHaveLength(3);
  }, 120_000);

  it('8 concurrent unreadable proofs of address with a limit of 3 read exactly 3', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    await usableFront(t, headers);
    reads.count = 0;
    const replies = await Promise.all(Array.from({ length: 8 }, () => t.app.inject(proofRequest(headers))));
    expect(reads.count).toBe(3);
    const read = replies.filter((r) => r.statusCode === 200).map((r) => r.json().payload.lectura.intentosRestantes as number);
    expect(read.sort()).toEqual([0, 1, 2]);
    expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(5);
    const state = await transactionState(t, headers.transaccion);
    expect(state.transaction.attempts).toEqual({ comprobante: 3 });
    expect(state.transaction.lockedUntil).not.toBeNull();
  }, 120_000);
});

describe.each(engines)('attempts when the server fails ($name)', (engine) => {
  const reads = { count: 0 };
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { wrapOcr: failing(reads) });
  }, 60_000);
  afterAll(async () => t?.close());

  it('gives the attempt back when the engine fails (500), also under concurrency', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const replies = await Promise.all(Array.from({ length: 4 }, () => t.app.inject(ocrRequest(headers))));
    // At most 3 at once; a fourth is refused while they are decided (429, no lock), or runs after a give-back.
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s !== 500 && s !== 429)).toEqual([]);
    expect(reads.count).toBe(statuses.filter((s) => s === 500).length);
    // Nothing counted, nothing locked: a later good capture still has all its attempts.
    const state = await transactionState(t, headers.transaccion);
    expect(state.transaction.attempts).toEqual({});
    expect(state.transaction.lockedUntil).toBeNull();
  }, 60_000);
});

describe.each(engines.filter((e) => e.name === 'postgres'))('attempts across two nodes ($name)', (engine) => {
  const readsA = { count: 0 };
  const readsB = { count: 0 };
  let t: TestApp;
  let second: Awaited<ReturnType<typeof startSecondNode>>;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { wrapOcr: counting(readsA) });
    second = await startSecondNode(t, { wrapOcr: counting(readsB) });
  }, 90_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it('8 concurrent ID reads, 4 on each node sharing PostgreSQL, run exactly 3', async () => {
    const headers = trxHeaders();
    await acceptConsents(t.app, headers);
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? t.app : second.app).inject(ocrRequest(headers))));
    expectThreeRan(
      replies.map((r) => r.statusCode),
      readsA.count + readsB.count,
    );
    const state = await transactionState(t, headers.transaccion);
    expect(state.transaction.attempts).toEqual({ id_frontal: 3 });
    expect((state.evidence ?? []).filter((e) => e.kind === 'ocr_frente')).toHaveLength(3);
  }, 180_000);
});
