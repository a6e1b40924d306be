import type { Config } from '../config.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './fs-blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

export { assertBlobKey, BlobNotFoundError, BlobStoreUnavailableError, InvalidBlobKeyError, type BlobContent, type BlobStore, type StoredBlob } from './blob-store.js';

/** The configured store: files under DATA_DIR/blobs, or an S3 bucket when S3_BUCKET is set. */
export function createBlobStore(config: Pick<Config, 'blobs'>, cipher: DataCipher): BlobStore {
  return config.blobs.kind === 's3' ? createS3BlobStore(config.blobs, cipher) : createFsBlobStore(config.blobs.dir, cipher);
}
