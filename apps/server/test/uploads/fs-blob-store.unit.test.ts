import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError, InvalidBlobKeyError } from '../../src/blob/blob-store.js';
import { createFsBlobStore } from '../../src/blob/fs-blob-store.js';
import { createBlobStore } from '../../src/blob/index.js';
import { createDataCipher, DataKeyError } from '../../src/crypto/data-cipher.js';
import { imageSample } from './samples.js';

const cipher = createDataCipher(Buffer.alloc(32, 3));
const key = 'grantor-1/user-1/domicilio/trx-1-20250101T000000000Z-ab12cd34.png';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('data cipher, bytes', () => {
  const data = Buffer.from([0, 1, 2, 250, 251, 252]);

  it('round-trips bytes in a versioned, key-identified envelope with a fresh IV', () => {
    const sealed = cipher.encryptBytes(data, 'ctx');
    expect(sealed.subarray(0, 5)).toEqual(Buffer.from([0x4b, 0x59, 0x43, 0x42, 0x01]));
    expect(sealed.subarray(5, 13).toString('ascii')).toBe(cipher.keyId);
    expect(cipher.decryptBytes(sealed, 'ctx')).toEqual(data);
    expect(cipher.encryptBytes(data, 'ctx').equals(sealed)).toBe(false);
  });

  it('refuses another context, a tampered byte, another key and a foreign format', () => {
    const sealed = cipher.encryptBytes(data, 'ctx');
    expect(() => cipher.decryptBytes(sealed, 'other')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => cipher.decryptBytes(tampered, 'ctx')).toThrow();
    expect(() => createDataCipher(Buffer.alloc(32, 4)).decryptBytes(sealed, 'ctx')).toThrow(DataKeyError);
    expect(() => cipher.decryptBytes(Buffer.from('not sealed at all'), 'ctx')).toThrow(DataKeyError);
  });

  it('leaves the text format unchanged', () => {
    expect(cipher.decrypt(cipher.encrypt('María', 'ctx'), 'ctx')).toBe('María');
    expect(cipher.encrypt('María', 'ctx')).toMatch(/^v1:/);
  });
});

describe('filesystem blob store', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'kyc-blobs-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores encrypted, reports size and SHA-256 of the plaintext, and reads back identical bytes', async () => {
    const store = createFsBlobStore(root, cipher);
    const png = await imageSample('png');
    const stored = await store.put(key, png, { contentType: 'image/png' });
    expect(stored).toEqual({ key, size: png.length, sha256: createHash('sha256').update(png).digest('hex') });

    const onDisk = readFileSync(path.join(root, key));
    expect(onDisk.subarray(0, 4).toString('ascii')).toBe('KYCB');
    expect(onDisk.includes(png.subarray(0, 16))).toBe(false);
    expect(onDisk.includes(png.subarray(1000, 1032))).toBe(false);
    expect(statSync(path.join(root, key)).mode & 0o777).toBe(0o600);

    const read = await store.get(key);
    expect(read.contentType).toBe('image/png');
    expect(read.buffer.equals(png)).toBe(true);
    expect(filesUnder(root)).toEqual([key]);
  });

  it('answers exists, deletes, and reports a missing blob', async () => {
    const store = createFsBlobStore(root, cipher);
    expect(await store.exists(key)).toBe(false);
    await store.put(key, Buffer.from('x'), { contentType: 'application/pdf' });
    expect(await store.exists(key)).toBe(true);
    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('replaces a blob written again under the same key', async () => {
    const store = createFsBlobStore(root, cipher);
    await store.put(key, Buffer.from('first'), { contentType: 'application/pdf' });
    await store.put(key, Buffer.from('second'), { contentType: 'application/pdf' });
    expect((await store.get(key)).buffer.toString()).toBe('second');
    expect(filesUnder(root)).toEqual([key]);
  });

  it('refuses keys that could leave the folder or hide a file', async () => {
    const store = createFsBlobStore(root, cipher);
    for (const bad of ['', '../escape.png', 'a/../../escape.png', '/etc/passwd', 'a//b', 'a/./b', '.hidden', 'a/.tmp', 'a\\b', 'a/b/', 'a b', 'x'.repeat(600)]) {
      await expect(store.put(bad, Buffer.from('x'), { contentType: 'image/png' }), bad).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.get(bad), bad).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    expect(filesUnder(root)).toEqual([]);
  });

  it('binds the content to its key: a file copied under another key does not decrypt', async () => {
    const store = createFsBlobStore(root, cipher);
    await store.put('a/one.png', Buffer.from('evidence'), { contentType: 'image/png' });
    await store.put('a/two.png', Buffer.from('other'), { contentType: 'image/png' });
    copyFileSync(path.join(root, 'a/one.png'), path.join(root, 'a/two.png'));
    await expect(store.get('a/two.png')).rejects.toThrow();
  });

  it('needs the same data key to read', async () => {
    await createFsBlobStore(root, cipher).put(key, Buffer.from('x'), { contentType: 'image/png' });
    await expect(createFsBlobStore(root, createDataCipher(Buffer.alloc(32, 9))).get(key)).rejects.toBeInstanceOf(DataKeyError);
  });

  it('is the default store, under DATA_DIR/blobs', () => {
    expect(createBlobStore({ blobs: { kind: 'filesystem', dir: path.join(root, 'blobs') } }, cipher).kind).toBe('filesystem');
  });
});
