import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { DataKeyError } from './data-cipher.js';

export interface LoadedLinkKey {
  key: Buffer;
  source: 'environment' | 'file' | 'derived';
  file?: string;
  created: boolean;
  warnings: string[];
}

export function linkKeyFile(dataDir: string): string {
  return path.join(dataDir, 'keys', 'links.key');
}

/**
 * The HS256 key of result links, kept like the data key: RESULT_LINK_KEY when set; with PostgreSQL (several nodes)
 * and no RESULT_LINK_KEY, derived from DATA_ENCRYPTION_KEY with HKDF so every node verifies what another signed;
 * otherwise a key file generated once under DATA_DIR/keys (mode 0600). Rotating it invalidates every open link.
 */
export function loadLinkKey(config: Pick<Config, 'resultLinkKey' | 'dataDir' | 'database' | 'dataEncryptionKey'>): LoadedLinkKey {
  if (config.resultLinkKey) return { key: config.resultLinkKey, source: 'environment', created: false, warnings: [] };
  if (config.database.kind === 'postgres' && config.dataEncryptionKey) {
    const key = Buffer.from(hkdfSync('sha256', config.dataEncryptionKey, Buffer.alloc(0), 'kyc result links v1', 32));
    return { key, source: 'derived', created: false, warnings: [] };
  }
  const file = linkKeyFile(config.dataDir);
  const warnings: string[] = [];
  let created = false;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) warnings.push(`the link key file ${file} is readable by other users: chmod 600 it`);
  const text = readFileSync(file, 'utf8').trim();
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32 || key.toString('base64') !== text) throw new DataKeyError(`the key file ${file} does not hold 32 bytes in base64`);
  return { key, source: 'file', file, created, warnings };
}
