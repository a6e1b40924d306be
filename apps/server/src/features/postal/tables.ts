import type { Kysely } from 'kysely';

/**
 * One settlement of the Correos de México catalogue. Codes keep their leading zeros, so every column is text.
 * The natural key is (d_codigo, c_estado, c_mnpio, id_asenta_cpcons).
 */
export interface PostalSettlementsTable {
  d_codigo: string;
  d_asenta: string;
  d_tipo_asenta: string | null;
  d_mnpio: string;
  d_estado: string;
  d_ciudad: string | null;
  d_zona: string | null;
  c_estado: string;
  c_mnpio: string;
  id_asenta_cpcons: string;
  c_tipo_asenta: string | null;
}

/** One successful catalogue import. `imported_at` is ISO-8601 UTC text. */
export interface PostalCatalogueImportsTable {
  id: string;
  source_name: string;
  sha256: string;
  rows_loaded: number;
  rows_rejected: number;
  imported_at: string;
}

/** The tables of this module; the server's `Database` interface includes them. */
export interface PostalTables {
  postal_settlements: PostalSettlementsTable;
  postal_catalogue_imports: PostalCatalogueImportsTable;
}

export type PostalDb = Kysely<PostalTables>;

/**
 * Kysely's database type parameter is invariant, so the server's `Kysely<Database>` (whose Database includes
 * PostalTables) is not a `Kysely<PostalTables>`. The public functions take any `Kysely<DB extends PostalTables>`
 * and narrow it here; they touch only the postal tables, so the narrowing is sound.
 */
export function asPostalDb<DB extends PostalTables>(db: Kysely<DB>): PostalDb {
  return db as unknown as PostalDb;
}

/** Column order of every insert; parse.ts produces values in this order. */
export const settlementColumns = [
  'd_codigo',
  'd_asenta',
  'd_tipo_asenta',
  'd_mnpio',
  'd_estado',
  'd_ciudad',
  'd_zona',
  'c_estado',
  'c_mnpio',
  'id_asenta_cpcons',
  'c_tipo_asenta',
] as const satisfies ReadonlyArray<keyof PostalSettlementsTable>;

export type SettlementColumn = (typeof settlementColumns)[number];

declare module '../../store/schema.js' {
  interface Database extends PostalTables {}
}
