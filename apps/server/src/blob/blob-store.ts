/** What a store reports about a blob it wrote: size and SHA-256 (hex) of the plaintext. */
export interface StoredBlob {
  key: string;
  size: number;
  sha256: string;
}

export interface BlobContent {
  buffer: Buffer;
  contentType: string;
}

/**
 * Uploaded evidence (images, videos, PDFs) by key. Contents are encrypted before they leave the process and
 * `put` resolves only once the blob is stored durably. Keys are relative paths (see assertBlobKey).
 */
export interface BlobStore {
  readonly kind: 'filesystem' | 's3';
  put(key: string, buffer: Buffer, options: { contentType: string }): Promise<StoredBlob>;
  /** Throws BlobNotFoundError when there is no blob under the key. */
  get(key: string): Promise<BlobContent>;
  /** Removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Releases connections; called when the app closes. */
  close(): void;
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`no blob under ${key}`);
  }
}

/**
 * The storage service could not be reached or failed (network error, timeout, a 5xx, a missing bucket): nothing
 * was stored. The http layer answers 503, so a client retries instead of taking the upload as kept.
 */
export class BlobStoreUnavailableError extends Error {
  override name = 'BlobStoreUnavailableError';
  constructor(operation: string, key: string, cause: unknown) {
    super(`blob store unavailable (${operation} ${key}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export class InvalidBlobKeyError extends Error {
  override name = 'InvalidBlobKeyError';
}

const maxKeyLength = 512;
// A segment never starts with a dot: no '.', '..', hidden names, nor clashes with the stores' temporary files.
const segmentPattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Keys are '/'-separated segments of letters, digits, '.', '_' and '-': no traversal, no absolute paths. */
export function assertBlobKey(key: string): void {
  if (key.length === 0 || key.length > maxKeyLength) throw new InvalidBlobKeyError(`blob key must be 1-${maxKeyLength} characters`);
  for (const segment of key.split('/')) {
    if (!segmentPattern.test(segment)) throw new InvalidBlobKeyError(`invalid blob key segment ${JSON.stringify(segment)}`);
  }
}
