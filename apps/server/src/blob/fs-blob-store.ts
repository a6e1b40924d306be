import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { DataCipher } from '../crypto/data-cipher.js';
import { assertBlobKey, BlobNotFoundError, InvalidBlobKeyError, type BlobStore } from './blob-store.js';
import { openBlob, sealBlob, sha256Hex } from './sealed-blob.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAndSync(file: string, data: Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under `root` (DATA_DIR/blobs), one file per key, encrypted with the data key. A write goes
 * to a temporary file in the target folder, is flushed to disk, renamed over the final name and the folder is
 * flushed too, so that a crash leaves either the whole blob or none, and `put` resolves only once it is durable.
 */
export function createFsBlobStore(root: string, cipher: DataCipher): BlobStore {
  const base = path.resolve(root);

  function fileOf(key: string): string {
    assertBlobKey(key);
    const file = path.resolve(base, ...key.split('/'));
    if (!file.startsWith(base + path.sep)) throw new InvalidBlobKeyError(`blob key ${key} leaves the blob folder`);
    return file;
  }

  return {
    kind: 'filesystem',

    async put(key, buffer, { contentType }) {
      const file = fileOf(key);
      const dir = path.dirname(file);
      const sealed = sealBlob(cipher, key, buffer, contentType);
      const firstCreated = await mkdir(dir, { recursive: true, mode: 0o700 });
      const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await writeAndSync(temp, sealed);
        await rename(temp, file);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
      await syncDirectory(dir);
      // A folder created for this blob exists durably only once its parent's entry is flushed as well.
      if (firstCreated !== undefined) {
        const stop = path.dirname(path.resolve(firstCreated));
        for (let current = dir; current !== stop && current !== path.dirname(current); ) {
          current = path.dirname(current);
          await syncDirectory(current);
        }
      }
      return { key, size: buffer.length, sha256: sha256Hex(buffer) };
    },

    async get(key) {
      const file = fileOf(key);
      let sealed: Buffer;
      try {
        sealed = await readFile(file);
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(key);
        throw error;
      }
      return openBlob(cipher, key, sealed);
    },

    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },

    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },

    close() {},
  };
}
