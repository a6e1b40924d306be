import { hkdfSync } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.js';
import { loadKeyFile } from './data-cipher.js';

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
  return { ...loadKeyFile(linkKeyFile(config.dataDir), 'link key'), source: 'file' };
}
