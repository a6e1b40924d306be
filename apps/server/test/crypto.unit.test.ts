import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey, safeEqual } from '../src/crypto/apikeys.js';
import { createDataCipher, DataKeyError, dataKeyFile, loadDataKey } from '../src/crypto/data-cipher.js';

describe('api keys', () => {
  it('are 32 random bytes in base64url', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(a);
  });

  it('hash to SHA-256 hex and compare in constant time', () => {
    expect(hashApiKey('demo')).toBe('2a97516c354b68848cdbd8f54a226a0a55b21ed138e207ad6c5cbb9c00aa5aea');
    expect(apiKeyMatches('demo', hashApiKey('demo'))).toBe(true);
    expect(apiKeyMatches('demo2', hashApiKey('demo'))).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(apiKeyPrefix('abcdefgh')).toBe('abcd');
  });
});

describe('data cipher', () => {
  const key = Buffer.alloc(32, 1);
  const cipher = createDataCipher(key);

  it('round-trips text with a versioned, key-identified prefix and a fresh IV each time', () => {
    const sealed = cipher.encrypt('María Núñez', 'ctx');
    expect(sealed).toMatch(new RegExp(`^v1:${cipher.keyId}:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain('María');
    expect(cipher.encrypt('María Núñez', 'ctx')).not.toBe(sealed);
    expect(cipher.decrypt(sealed, 'ctx')).toBe('María Núñez');
  });

  it('refuses another context, a tampered value and another key', () => {
    const sealed = cipher.encrypt('secreto', 'row-1');
    expect(() => cipher.decrypt(sealed, 'row-2')).toThrow();
    // The second-to-last character changed (it always carries data bits), whatever it was.
    const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => cipher.decrypt(tampered, 'row-1')).toThrow();
    const other = createDataCipher(Buffer.alloc(32, 2));
    expect(() => other.decrypt(sealed, 'row-1')).toThrow(DataKeyError);
    expect(() => cipher.decrypt('plain text', 'row-1')).toThrow(DataKeyError);
    expect(() => createDataCipher(Buffer.alloc(16))).toThrow(DataKeyError);
  });
});

describe('data key', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kyc-key-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('prefers DATA_ENCRYPTION_KEY', () => {
    const key = Buffer.alloc(32, 9);
    const dataDir = tempDir();
    expect(loadDataKey({ dataEncryptionKey: key, dataDir })).toMatchObject({ key, source: 'environment', created: false });
  });

  it('generates the key file once, mode 0600, and reuses it', () => {
    const dataDir = tempDir();
    const first = loadDataKey({ dataEncryptionKey: undefined, dataDir });
    expect(first).toMatchObject({ source: 'file', created: true, warnings: [] });
    expect(statSync(dataKeyFile(dataDir)).mode & 0o777).toBe(0o600);
    const second = loadDataKey({ dataEncryptionKey: undefined, dataDir });
    expect(second.created).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
  });

  it('refuses a corrupt key file', () => {
    const dataDir = tempDir();
    loadDataKey({ dataEncryptionKey: undefined, dataDir });
    writeFileSync(dataKeyFile(dataDir), 'not a key\n');
    expect(() => loadDataKey({ dataEncryptionKey: undefined, dataDir })).toThrow(DataKeyError);
  });
});
