import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Cached } from '../../caches.js';
import { countPostalSettlements, importPostalCatalogue, type PostalImportReport } from './import.js';
import { sampleCatalogueFileName, writeSampleCatalogue } from './sample.js';
import type { PostalTables } from './tables.js';

/** Imports the project's sample catalogue (see sample.ts) into `db`. */
export async function importSampleCatalogue<DB extends PostalTables>(target: Cached<Kysely<DB>>): Promise<PostalImportReport> {
  const sampleDir = await mkdtemp(path.join(tmpdir(), 'kyc-postal-'));
  try {
    const file = path.join(sampleDir, sampleCatalogueFileName);
    await writeSampleCatalogue(file);
    return await importPostalCatalogue(target, file);
  } finally {
    await rm(sampleDir, { recursive: true, force: true });
  }
}

/**
 * The demo's postal codes: the sample catalogue, unless a catalogue is already loaded (never replaces one an operator
 * imported). Returns the import's report, or undefined when nothing was imported.
 */
export async function seedSampleCatalogueIfEmpty<DB extends PostalTables>(target: Cached<Kysely<DB>>): Promise<PostalImportReport | undefined> {
  if ((await countPostalSettlements(target.db)) > 0) return undefined;
  return importSampleCatalogue(target);
}
