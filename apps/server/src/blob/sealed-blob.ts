import { createHash } from 'node:crypto';
import type { DataCipher } from '../crypto/data-cipher.js';
import type { BlobContent } from './blob-store.js';

const contentTypePattern = /^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*$/i;

export function sha256Hex(buffer: Buffer): string {
  return createHash('sha256').update(buffer).digest('hex');
}

/**
 * The bytes a store writes: the content type and the data, encrypted together with the blob key as the
 * authenticated context, so a blob copied or renamed to another key does not decrypt.
 * Plaintext layout: content-type length (1 byte) | content type (ASCII) | data.
 */
export function sealBlob(cipher: DataCipher, key: string, buffer: Buffer, contentType: string): Buffer {
  if (!contentTypePattern.test(contentType) || contentType.length > 255) throw new Error(`invalid content type ${contentType}`);
  const type = Buffer.from(contentType, 'ascii');
  return cipher.encryptBytes(Buffer.concat([Buffer.from([type.length]), type, buffer]), key);
}

export function openBlob(cipher: DataCipher, key: string, sealed: Buffer): BlobContent {
  const plain = cipher.decryptBytes(sealed, key);
  const typeLength = plain[0] ?? 0;
  if (typeLength === 0 || plain.length < 1 + typeLength) throw new Error(`blob ${key} has no content type`);
  return { contentType: plain.subarray(1, 1 + typeLength).toString('ascii'), buffer: plain.subarray(1 + typeLength) };
}
