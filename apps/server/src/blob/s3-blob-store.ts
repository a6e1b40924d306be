import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobConfig } from '../config.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import { assertBlobKey, BlobNotFoundError, BlobStoreUnavailableError, type BlobStore } from './blob-store.js';
import { openBlob, sealBlob, sha256Hex } from './sealed-blob.js';

export type S3BlobConfig = Extract<BlobConfig, { kind: 's3' }>;

const MiB = 1024 * 1024;

export interface S3UploadSizes {
  /** Sealed blobs of at least this many bytes go up as a multipart upload (a face video); smaller ones in one PUT. */
  multipartThreshold: number;
  /** Bytes per part (S3's minimum is 5 MiB for every part but the last). */
  partSize: number;
}

export const defaultS3UploadSizes: S3UploadSizes = { multipartThreshold: 8 * MiB, partSize: 5 * MiB };

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a 404 too, but it means the store is unusable, not that one blob is absent.
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs as objects of an S3 bucket (AWS or S3-compatible), encrypted with the data key before upload, so the
 * storage provider never holds readable evidence. S3 answers a PUT (or completes a multipart upload) only once
 * the object is stored durably. Any failure of the service itself is a BlobStoreUnavailableError.
 */
export function createS3BlobStore(config: S3BlobConfig, cipher: DataCipher, sizes: S3UploadSizes = defaultS3UploadSizes): BlobStore {
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

  async function call<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError(operation, key, error);
    }
  }

  async function upload(key: string, sealed: Buffer): Promise<void> {
    if (sealed.length < sizes.multipartThreshold) {
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
      return;
    }
    // Parts go up two at a time and are retried one by one; on a failure the upload is aborted, so no object
    // (and no orphan parts, when the service answers the abort) is left behind.
    await new Upload({
      client,
      params: { Bucket, Key: key, Body: sealed, ContentType: 'application/octet-stream' },
      partSize: sizes.partSize,
      queueSize: 2,
      leavePartsOnError: false,
    }).done();
  }

  return {
    kind: 's3',

    async put(key, buffer, { contentType }) {
      assertBlobKey(key);
      const sealed = sealBlob(cipher, key, buffer, contentType);
      await call('put', key, () => upload(key, sealed));
      return { key, size: buffer.length, sha256: sha256Hex(buffer) };
    },

    async get(key) {
      assertBlobKey(key);
      const sealed = await call('get', key, async () => {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) throw new Error(`S3 returned no body for ${key}`);
        return Buffer.from(await object.Body.transformToByteArray());
      });
      return openBlob(cipher, key, sealed);
    },

    async delete(key) {
      assertBlobKey(key);
      try {
        await call('delete', key, () => client.send(new DeleteObjectCommand({ Bucket, Key: key })));
      } catch (error) {
        if (!(error instanceof BlobNotFoundError)) throw error;
      }
    },

    async exists(key) {
      assertBlobKey(key);
      try {
        await call('exists', key, () => client.send(new HeadObjectCommand({ Bucket, Key: key })));
        return true;
      } catch (error) {
        if (error instanceof BlobNotFoundError) return false;
        throw error;
      }
    },

    close() {
      client.destroy();
    },
  };
}
