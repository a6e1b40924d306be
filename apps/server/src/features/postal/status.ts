import { sql } from 'kysely';
import { sampleCatalogueFileName } from './sample.js';
import type { PostalTables } from './tables.js';
import type { Kysely } from 'kysely';

export interface CatalogueStatus {
  settlements: number;
  postalCodes: number;
  /** The file of the import in place, null when nothing was imported. */
  source: string | null;
  /** Only the project's small sample is loaded: the address form knows a handful of postal codes. */
  sampleOnly: boolean;
}

/** What the address form can look up: how many settlements and postal codes, and from which import. */
export async function catalogueStatus<DB extends PostalTables>(db: Kysely<DB>): Promise<CatalogueStatus> {
  const postal = db as unknown as Kysely<PostalTables>;
  const counts = await postal
    .selectFrom('postal_settlements')
    .select([sql<number>`count(*)`.as('settlements'), sql<number>`count(distinct d_codigo)`.as('codes')])
    .executeTakeFirstOrThrow();
  const latest = await postal.selectFrom('postal_catalogue_imports').select('source_name').orderBy('imported_at', 'desc').limit(1).executeTakeFirst();
  const source = latest?.source_name ?? null;
  return { settlements: Number(counts.settlements), postalCodes: Number(counts.codes), source, sampleOnly: source === sampleCatalogueFileName };
}

/** The start-up line about the catalogue; a warning when the address form cannot find most postal codes. */
export function catalogueStatusLog(status: CatalogueStatus): { level: 'info' | 'warn'; message: string } {
  const importHint = "import Correos de México's CPdescarga.txt with: npm run postal:import -- /path/to/CPdescarga.txt";
  if (status.settlements === 0) return { level: 'warn', message: `no postal codes are loaded: the address form cannot look any up; ${importHint}` };
  if (status.sampleOnly) {
    return { level: 'warn', message: `only the sample postal catalogue is loaded (${status.postalCodes} postal codes, for demos): ${importHint}` };
  }
  return { level: 'info', message: `postal catalogue loaded: ${status.postalCodes} postal codes, ${status.settlements} settlements (${status.source ?? 'unknown source'})` };
}
