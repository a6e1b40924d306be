import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, InvalidBlobKeyError, type BlobStore } from '../../src/blob/blob-store.js';
import { createBlobStore } from '../../src/blob/index.js';
import { loadConfig } from '../../src/config.js';
import { createDataCipher } from '../../src/crypto/data-cipher.js';
import { imageSample } from './samples.js';
import { startS3Double, type S3Double } from './s3-double.js';

const cipher = createDataCipher(Buffer.alloc(32, 5));
const accessKeyId = 'AKIDKYCTEST';
const key = 'grantor-1/user-1/domicilio/trx-1-20250101T000000000Z-ab12cd34.png';

describe('S3 blob store (against an in-process S3 double)', () => {
  let s3: S3Double;
  let store: BlobStore;
  beforeAll(async () => {
    s3 = await startS3Double(accessKeyId);
    const config = loadConfig({
      S3_BUCKET: 'kyc-evidence',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'mx-central-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: 'secret-for-tests',
    });
    store = createBlobStore(config, cipher);
  });
  afterAll(async () => {
    store?.close();
    await s3?.close();
  });

  it('is chosen by S3_BUCKET and writes path-style objects under the same keys', async () => {
    expect(store.kind).toBe('s3');
    await store.put('a/path-style.pdf', Buffer.from('%PDF-1.4'), { contentType: 'application/pdf' });
    expect(s3.requests).toContain('PUT /kyc-evidence/a/path-style.pdf');
  });

  it('uploads only ciphertext, signed and with its Content-MD5, and reads back identical bytes', async () => {
    const png = await imageSample('png');
    const stored = await store.put(key, png, { contentType: 'image/png' });
    expect(stored).toEqual({ key, size: png.length, sha256: createHash('sha256').update(png).digest('hex') });

    const object = s3.objects.get(`kyc-evidence/${key}`);
    expect(object?.contentType).toBe('application/octet-stream');
    expect(object?.body.subarray(0, 4).toString('ascii')).toBe('KYCB');
    expect(object?.body.includes(png.subarray(0, 16))).toBe(false);

    const read = await store.get(key);
    expect(read.contentType).toBe('image/png');
    expect(read.buffer.equals(png)).toBe(true);
  });

  it('handles a blob of several megabytes', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    await store.put('a/big.webm', big, { contentType: 'video/webm' });
    expect((await store.get('a/big.webm')).buffer.equals(big)).toBe(true);
  });

  it('answers exists, deletes, and reports a missing blob', async () => {
    await store.put('a/exists.png', Buffer.from('x'), { contentType: 'image/png' });
    expect(await store.exists('a/exists.png')).toBe(true);
    await store.delete('a/exists.png');
    expect(await store.exists('a/exists.png')).toBe(false);
    await expect(store.get('a/exists.png')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('binds the content to its key: an object copied under another key does not decrypt', async () => {
    await store.put('a/one.png', Buffer.from('evidence'), { contentType: 'image/png' });
    const one = s3.objects.get('kyc-evidence/a/one.png');
    if (!one) throw new Error('object not stored');
    s3.objects.set('kyc-evidence/a/copy.png', one);
    await expect(store.get('a/copy.png')).rejects.toThrow();
  });

  it('refuses invalid keys before any request', async () => {
    const before = s3.requests.length;
    await expect(store.put('../escape.png', Buffer.from('x'), { contentType: 'image/png' })).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(s3.requests.length).toBe(before);
  });

  it('surfaces a refusal by the service', async () => {
    const foreign = createBlobStore(
      loadConfig({ S3_BUCKET: 'kyc-evidence', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'AKIDOTHER', S3_SECRET_ACCESS_KEY: 'x' }),
      cipher,
    );
    try {
      await expect(foreign.put('a/denied.png', Buffer.from('x'), { contentType: 'image/png' })).rejects.toThrow();
      expect(s3.objects.has('kyc-evidence/a/denied.png')).toBe(false);
    } finally {
      foreign.close();
    }
  });
});
