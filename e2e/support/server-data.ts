import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../apps/server/src/config.js';
import type { DataCipher } from '../../apps/server/src/crypto/data-cipher.js';
import type { Db } from '../../apps/server/src/store/db.js';
import type { RunningServer } from './server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One module of the built server (the e2e server runs from dist), typed as its source. */
export async function serverModule<T>(file: string): Promise<T> {
  return (await import(path.join(root, 'apps/server/dist', file))) as T;
}

export interface ServerData {
  config: Config;
  db: Db;
  cipher: DataCipher;
}

/** The running server's own database and data key, for a test to write or read what the flow would have (closed after `use`). */
export async function withServerData<T>(server: RunningServer, use: (data: ServerData) => Promise<T>): Promise<T> {
  const { loadConfig } = await serverModule<typeof import('../../apps/server/src/config.js')>('config.js');
  const { createDatabase } = await serverModule<typeof import('../../apps/server/src/store/db.js')>('store/db.js');
  const { createDataCipher, loadDataKey } = await serverModule<typeof import('../../apps/server/src/crypto/data-cipher.js')>('crypto/data-cipher.js');
  const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  const db = createDatabase(config.database);
  try {
    return await use({ config, db, cipher: createDataCipher(loadDataKey(config).key) });
  } finally {
    await db.destroy();
  }
}
