#!/usr/bin/env node
// Loads Correos de México's postal-code catalogue (CPdescarga.txt, or the same columns as CSV/PSV, gzipped or not).
import { runPostalImportCli } from '../features/postal/index.js';
import { createDatabase } from '../store/db.js';
import { migrateToLatest } from '../migrations.js';
import { loadCliConfig } from './cli-config.js';

async function main(): Promise<number> {
  const config = loadCliConfig((line) => process.stderr.write(`${line}\n`));
  if (!config) return 1;
  return runPostalImportCli(process.argv.slice(2), {
    openDb: async () => {
      const db = createDatabase(config.database);
      await migrateToLatest(db);
      return db;
    },
  });
}

process.exitCode = await main();
