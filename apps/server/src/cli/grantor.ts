#!/usr/bin/env node
import { AppCaches } from '../caches.js';
import { cliBaseUrl } from '../public-url-file.js';
import { loadCliConfig } from './cli-config.js';
import { createDatabase } from '../store/db.js';
import { migrateToLatest } from '../migrations.js';
import { runGrantorCommand } from './grantor-commands.js';
import { createDataCipher, loadDataKey } from '../crypto/data-cipher.js';
import { createBlobStore } from '../blob/index.js';

// Output piped into `head` and the like: stop quietly when the reader goes away.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

async function main(): Promise<number> {
  const config = loadCliConfig(io.err);
  if (!config) return 1;
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    // Only the commands that seal secrets or delete data read the data key.
    const openCipher = () => {
      const loaded = loadDataKey(config);
      for (const warning of loaded.warnings) io.err(`warning: ${warning}`);
      return createDataCipher(loaded.key);
    };
    // This process's own caches: the service's nodes see a change within their read caches' 5 s.
    return await runGrantorCommand({ db, caches: new AppCaches() }, process.argv.slice(2), io, cliBaseUrl(config), openCipher, (cipher) => createBlobStore(config, cipher));
  } catch (error) {
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
