#!/usr/bin/env node
// Loads Correos de México's postal-code catalogue (CPdescarga.txt, or the same columns as CSV/PSV, gzipped or not).
import { ConfigError, loadConfig } from '../config.js';
import { runPostalImportCli } from '../postal/index.js';
import { createDatabase } from '../store/db.js';
import { migrateToLatest } from '../store/migrations.js';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  return runPostalImportCli(process.argv.slice(2), {
    openDb: async () => {
      const db = createDatabase(config.database);
      await migrateToLatest(db);
      return db;
    },
  });
}

process.exitCode = await main();
