import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { BlobConfig } from '../config.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import { assertBlobKey, BlobNotFoundError, type BlobStore } from './blob-store.js';
import { openBlob, sealBlob, sha256Hex } from './sealed-blob.js';

export type S3BlobConfig = Extract<BlobConfig, { kind: 's3' }>;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs as objects of an S3 bucket (AWS or S3-compatible), encrypted with the data key before upload, so the
 * storage provider never holds readable evidence. S3 answers a PUT only once the object is stored durably.
 */
export function createS3BlobStore(config: S3BlobConfig, cipher: DataCipher): BlobStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Newer SDK defaults add checksum trailers that several S3-compatible services reject; Content-MD5 is sent instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
  });
  const Bucket = config.bucket;

  return {
    kind: 's3',

    async put(key, buffer, { contentType }) {
      assertBlobKey(key);
      const sealed = sealBlob(cipher, key, buffer, contentType);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: sealed,
          ContentLength: sealed.length,
          ContentType: 'application/octet-stream',
          ContentMD5: createHash('md5').update(sealed).digest('base64'),
        }),
      );
      return { key, size: buffer.length, sha256: sha256Hex(buffer) };
    },

    async get(key) {
      assertBlobKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) throw new Error(`S3 returned no body for ${key}`);
        return openBlob(cipher, key, Buffer.from(await object.Body.transformToByteArray()));
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        throw error;
      }
    },

    async delete(key) {
      assertBlobKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async exists(key) {
      assertBlobKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    close() {
      client.destroy();
    },
  };
}
