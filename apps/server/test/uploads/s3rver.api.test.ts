import { createHash, randomBytes } from 'node:crypto';
import { errorTexts } from '@kyc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobStoreUnavailableError, InvalidBlobKeyError, type BlobStore } from '../../src/blob/blob-store.js';
import { createBlobStore } from '../../src/blob/index.js';
import { defaultS3UploadSizes } from '../../src/blob/s3-blob-store.js';
import { loadConfig } from '../../src/config.js';
import { createDataCipher } from '../../src/crypto/data-cipher.js';
import { engines, startTestApp, type TestApp } from '../support/app.js';
import { demoId, trxHeaders } from '../support/fixtures.js';
import { acceptConsents, usableFront } from '../support/journey.js';
import { startS3Server, type S3Server } from '../support/s3-server.js';
import { imageSample, multipartBody, pdfSample } from './samples.js';

const MiB = 1024 * 1024;
const cipher = createDataCipher(Buffer.alloc(32, 9));
const videoKey = (name: string) => `grantor-1/user-1/video/trx-1-20250101T000000000Z-${name}.webm`;

describe('S3 blob store against a real S3-protocol server (s3rver)', () => {
  let s3: S3Server;
  let store: BlobStore;
  beforeAll(async () => {
    s3 = await startS3Server();
    store = createBlobStore(loadConfig(s3.env), cipher);
  });
  afterAll(async () => {
    store?.close();
    await s3?.close();
  });

  it('puts, gets, answers exists and deletes (as retention does) a blob', async () => {
    expect(store.kind).toBe('s3');
    const png = await imageSample('png');
    const key = 'grantor-1/user-1/domicilio/trx-1-20250101T000000000Z-ab12cd34.png';
    const stored = await store.put(key, png, { contentType: 'image/png' });
    expect(stored).toEqual({ key, size: png.length, sha256: createHash('sha256').update(png).digest('hex') });
    expect(await s3.raw.keys()).toContain(key);

    const read = await store.get(key);
    expect(read.contentType).toBe('image/png');
    expect(read.buffer.equals(png)).toBe(true);
    expect(await store.exists(key)).toBe(true);

    await store.delete(key);
    expect(await s3.raw.head(key)).toBeUndefined();
    expect(await store.exists(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('keeps only ciphertext in the bucket: the provider cannot read the evidence', async () => {
    const secret = Buffer.from('CURP LOEN850101MDFPSM09 Noemí López Espinoza, Calle Hidalgo 59');
    const key = 'grantor-1/user-1/identificacion/trx-1-datos.txt';
    await store.put(key, secret, { contentType: 'text/plain' });
    const raw = await s3.raw.get(key);
    expect(raw.subarray(0, 4).toString('ascii')).toBe('KYCB');
    expect(raw.includes(Buffer.from('LOEN850101'))).toBe(false);
    expect(raw.includes(Buffer.from('text/plain'))).toBe(false);
    expect((await store.get(key)).buffer.equals(secret)).toBe(true);
    // Without the data key the object does not open.
    const foreignKey = createBlobStore(loadConfig(s3.env), createDataCipher(Buffer.alloc(32, 8)));
    try {
      await expect(foreignKey.get(key)).rejects.toThrow();
    } finally {
      foreignKey.close();
    }
  });

  it('uploads a large video as a multipart upload, and a small blob in one PUT', async () => {
    const video = randomBytes(12 * MiB);
    const key = videoKey('large');
    const before = s3.requests.length;
    const started = performance.now();
    await store.put(key, video, { contentType: 'video/webm' });
    const ms = performance.now() - started;
    const calls = s3.requests.slice(before).filter((r) => r.includes(key.split('/').pop()!));
    expect(calls.filter((r) => /^POST .*\?uploads/.test(r))).toHaveLength(1);
    // 12 MiB sealed, in parts of 5 MiB: 5 + 5 + 2.
    expect(calls.filter((r) => /^PUT .*partNumber=\d+/.test(r))).toHaveLength(Math.ceil((12 * MiB) / defaultS3UploadSizes.partSize));
    expect(calls.filter((r) => /^POST .*uploadId=/.test(r))).toHaveLength(1);
    expect(calls.filter((r) => /^PUT /.test(r) && !r.includes('partNumber'))).toHaveLength(0);

    const head = await s3.raw.head(key);
    expect(head?.size).toBeGreaterThan(video.length);
    const raw = await s3.raw.get(key);
    expect(raw.includes(video.subarray(0, 64))).toBe(false);
    expect(raw.includes(video.subarray(6 * MiB, 6 * MiB + 64))).toBe(false);
    const read = await store.get(key);
    expect(read.contentType).toBe('video/webm');
    expect(read.buffer.equals(video)).toBe(true);
    console.info(`multipart upload of a 12 MiB video to s3rver: ${ms.toFixed(0)} ms`);

    const small = s3.requests.length;
    await store.put(videoKey('small'), randomBytes(MiB), { contentType: 'video/webm' });
    expect(s3.requests.slice(small).filter((r) => r.startsWith('PUT ') || r.startsWith('POST '))).toEqual([`PUT /${s3.bucket}/${videoKey('small')}?x-id=PutObject`]);
  });

  it('answers BlobStoreUnavailableError while the server is down, stores nothing, and works again once it is back', async () => {
    const keys = await s3.raw.keys();
    await s3.stop();
    try {
      await expect(store.put(videoKey('down-small'), Buffer.from('x'), { contentType: 'video/webm' })).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.put(videoKey('down-large'), randomBytes(9 * MiB), { contentType: 'video/webm' })).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.get(keys[0]!)).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.exists(keys[0]!)).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.delete(keys[0]!)).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      await s3.start();
    }
    expect(await s3.raw.keys()).toEqual(keys);
    await store.put(videoKey('back'), Buffer.from('y'), { contentType: 'video/webm' });
    expect((await store.get(videoKey('back'))).buffer.toString()).toBe('y');
  });

  it('binds the content to its key: an object copied under another key does not open', async () => {
    await store.put('a/one.png', Buffer.from('evidence'), { contentType: 'image/png' });
    await s3.raw.put('a/copy.png', await s3.raw.get('a/one.png'));
    await expect(store.get('a/copy.png')).rejects.toThrow(/./);
    await expect(store.get('a/copy.png')).rejects.not.toBeInstanceOf(BlobStoreUnavailableError);
  });

  it('refuses invalid keys before any request', async () => {
    const before = s3.requests.length;
    await expect(store.put('../escape.png', Buffer.from('x'), { contentType: 'image/png' })).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(s3.requests.length).toBe(before);
  });

  it('signs its requests: the server refuses foreign credentials and nothing is stored', async () => {
    const foreign = createBlobStore(loadConfig({ ...s3.env, S3_ACCESS_KEY_ID: 'AKIDOTHER', S3_SECRET_ACCESS_KEY: 'x' }), cipher);
    try {
      await expect(foreign.put('a/denied.png', Buffer.from('x'), { contentType: 'image/png' })).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      expect(await s3.raw.head('a/denied.png')).toBeUndefined();
    } finally {
      foreign.close();
    }
  });

  it('answers BlobStoreUnavailableError for a bucket that does not exist', async () => {
    const missing = createBlobStore(loadConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket' }), cipher);
    try {
      await expect(missing.put('a/b.png', Buffer.from('x'), { contentType: 'image/png' })).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(missing.get('a/b.png')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      missing.close();
    }
  });
});

describe.each(engines)('POST /v1/file with the S3 store, the server down and back ($name)', (engine) => {
  let s3: S3Server;
  let t: TestApp;

  const upload = (headers: ReturnType<typeof trxHeaders>, pdf: Buffer) => {
    const { payload, contentType } = multipartBody([
      { name: 'folder', value: `${demoId}/${headers.cliente}/domicilio` },
      { name: 'uuid', value: headers.cliente },
      { name: 'file', filename: 'comprobante.pdf', contentType: 'application/pdf', data: pdf },
    ]);
    return t.app.inject({ method: 'POST', url: '/v1/file', headers: { ...headers, 'content-type': contentType }, payload });
  };
  const open = async () => {
    const headers = trxHeaders();
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers })).statusCode).toBe(200);
    await acceptConsents(t.app, headers);
    await usableFront(t, headers);
    return headers;
  };
  const blobRows = (uuidTrx: string) => t.db.selectFrom('evidence').select(['kind', 'blob_key']).where('uuid_trx', '=', uuidTrx).where('blob_key', 'is not', null).execute();
  /** Every evidence row that names a blob names one the bucket holds. */
  const expectNoDanglingBlobKeys = async () => {
    const keys = new Set(await s3.raw.keys());
    const rows = await t.db.selectFrom('evidence').select('blob_key').where('blob_key', 'is not', null).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => !keys.has(r.blob_key!))).toEqual([]);
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp(engine, s3.env);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('stores the upload as ciphertext in the bucket and records it', async () => {
    expect(t.config.blobs.kind).toBe('s3');
    const headers = await open();
    const pdf = pdfSample('Comprobante de domicilio S3');
    const res = await upload(headers, pdf);
    expect(res.statusCode).toBe(200);
    const { key } = (res.json() as { payload: { key: string } }).payload;
    expect((await blobRows(headers.transaccion)).map((r) => r.blob_key)).toContain(key);
    const raw = await s3.raw.get(key);
    expect(raw.includes(Buffer.from('%PDF'))).toBe(false);
    await expectNoDanglingBlobKeys();
  });

  it('answers 503 while the S3 server is down, acknowledges and records nothing, and uploads again once it is back', async () => {
    const headers = await open();
    const keysBefore = await s3.raw.keys();
    await s3.stop();
    let down;
    try {
      down = await upload(headers, pdfSample('Comprobante mientras S3 no responde'));
    } finally {
      await s3.start();
    }
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 503, message: 'Evidence storage is unavailable; try again', message_client: errorTexts.serviceUnavailable });
    expect(await blobRows(headers.transaccion)).toEqual([]);
    expect(await s3.raw.keys()).toEqual(keysBefore);
    await expectNoDanglingBlobKeys();

    // Back: the same transaction uploads, the failed try did not use one of its attempts.
    const again = await upload(headers, pdfSample('Comprobante con S3 de vuelta'));
    expect(again.statusCode).toBe(200);
    const body = again.json() as { payload: { key: string; lectura: { intentosRestantes: number } } };
    expect(await s3.raw.head(body.payload.key)).toBeDefined();
    expect((await blobRows(headers.transaccion)).map((r) => r.blob_key)).toContain(body.payload.key);
    await expectNoDanglingBlobKeys();
  });
});
