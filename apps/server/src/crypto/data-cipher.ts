import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binary format of encryptBytes: magic | format version | key id (8 ASCII hex) | iv | tag | data. */
const BYTES_MAGIC = Buffer.from('KYCB', 'ascii');
const BYTES_VERSION = 1;
const KEY_ID_BYTES = 8;
const BYTES_HEADER = BYTES_MAGIC.length + 1 + KEY_ID_BYTES;

export class DataKeyError extends Error {
  override name = 'DataKeyError';
}

/**
 * AES-256-GCM for personal data at rest. Ciphertext format: `v1:<key id>:<base64url(iv | tag | data)>`.
 * The key id tells which key sealed a value (for rotation and for a clear error on a wrong key).
 * `context` is bound as additional authenticated data, so a value copied to another row does not decrypt.
 * The byte variants seal files (blobs) the same way in a binary envelope: `KYCB | 0x01 | key id | iv | tag | data`.
 */
export interface DataCipher {
  readonly keyId: string;
  encrypt(plaintext: string, context: string): string;
  decrypt(sealed: string, context: string): string;
  encryptBytes(plaintext: Buffer, context: string): Buffer;
  decryptBytes(sealed: Buffer, context: string): Buffer;
  /** A 32-byte key for another purpose (HKDF-SHA256 of the data key with `purpose` as info): never the data key itself. */
  deriveKey(purpose: string): Buffer;
}

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('kyc-data-key:').update(key).digest('hex').slice(0, 8);
}

export function createDataCipher(key: Buffer): DataCipher {
  if (key.length !== 32) throw new DataKeyError('the data encryption key must be 32 bytes');
  const keyId = keyIdOf(key);
  const seal = (plaintext: Buffer, context: string) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { iv, tag: cipher.getAuthTag(), data };
  };
  const open = (raw: Buffer, context: string) => {
    if (raw.length < IV_BYTES + TAG_BYTES) throw new DataKeyError('truncated encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  };
  return {
    keyId,
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), Buffer.from(`kyc:${purpose}`, 'utf8'), 32));
    },
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
      return `${VERSION}:${keyId}:${sealed}`;
    },
    decrypt(sealed, context) {
      const [version, sealedKeyId, body, ...rest] = sealed.split(':');
      if (version !== VERSION || !sealedKeyId || body === undefined || rest.length > 0) {
        throw new DataKeyError('unrecognised encrypted value');
      }
      if (sealedKeyId !== keyId) {
        throw new DataKeyError(`value sealed with data key ${sealedKeyId}, but the configured key is ${keyId}`);
      }
      const raw = Buffer.from(body, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new DataKeyError('truncated encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
    encryptBytes(plaintext, context) {
      const { iv, tag, data } = seal(plaintext, context);
      return Buffer.concat([BYTES_MAGIC, Buffer.from([BYTES_VERSION]), Buffer.from(keyId, 'ascii'), iv, tag, data]);
    },
    decryptBytes(sealed, context) {
      if (sealed.length < BYTES_HEADER || !sealed.subarray(0, BYTES_MAGIC.length).equals(BYTES_MAGIC) || sealed[BYTES_MAGIC.length] !== BYTES_VERSION) {
        throw new DataKeyError('unrecognised encrypted value');
      }
      const sealedKeyId = sealed.subarray(BYTES_MAGIC.length + 1, BYTES_HEADER).toString('ascii');
      if (sealedKeyId !== keyId) {
        throw new DataKeyError(`value sealed with data key ${sealedKeyId}, but the configured key is ${keyId}`);
      }
      return open(sealed.subarray(BYTES_HEADER), context);
    },
  };
}

export interface LoadedDataKey {
  key: Buffer;
  source: 'environment' | 'file';
  file?: string;
  created: boolean;
  warnings: string[];
}

export function dataKeyFile(dataDir: string): string {
  return path.join(dataDir, 'keys', 'data.key');
}

function parseKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32 || key.toString('base64') !== text) {
    throw new DataKeyError(`the key file ${file} does not hold 32 bytes in base64`);
  }
  return key;
}

/**
 * A 32-byte key kept in `file` (base64), generated with mode 0600 when missing; warns when others can read it.
 * `label` names the key in the warning ("data key", "link key").
 */
export function loadKeyFile(file: string, label: string): { key: Buffer; file: string; created: boolean; warnings: string[] } {
  const warnings: string[] = [];
  let created = false;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    created = true;
  } catch (error) {
    // 'wx' refuses to overwrite: another process (or an earlier start) created it first, which is fine.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) {
    warnings.push(`the ${label} file ${file} is readable by other users: chmod 600 it`);
  }
  return { key: parseKeyFile(file), file, created, warnings };
}

/**
 * DATA_ENCRYPTION_KEY when set; otherwise the local key file, generated (mode 0600) on first start.
 * Losing the key file makes stored personal data unreadable: back it up with the database.
 */
export function loadDataKey(config: Pick<Config, 'dataEncryptionKey' | 'dataDir'>): LoadedDataKey {
  if (config.dataEncryptionKey) {
    return { key: config.dataEncryptionKey, source: 'environment', created: false, warnings: [] };
  }
  return { ...loadKeyFile(dataKeyFile(config.dataDir), 'data key'), source: 'file' };
}
