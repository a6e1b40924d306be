import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Cached } from '../../caches.js';
import { clearPostalLookupCache } from './cache.js';
import { PostalImportError, type RowRejection } from './errors.js';
import { parseCatalogue } from './parse.js';
import { openCatalogue, type CatalogueSource } from './source.js';
import { asPostalDb, settlementColumns, type PostalTables, type SettlementColumn } from './tables.js';

export interface PostalImportOptions {
  /** Progress and outcome messages (Spanish, for the operator). */
  log?: (message: string) => void;
  /** Largest share of rejected rows (0 to 1) a file may have and still replace the catalogue. Default 0.05. */
  maxRejectedShare?: number;
  /** Recorded in postal_catalogue_imports; defaults to the file's base name. */
  sourceName?: string;
}

export interface PostalImportReport {
  /** Data rows in the file (blank lines, the notice and the header excluded). */
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  /** The first rejections, in file order. */
  rejections: RowRejection[];
  durationMs: number;
  /** Hex SHA-256 of the file as given. */
  sha256: string;
}

export const defaultMaxRejectedShare = 0.05;
const keptRejections = 20;
/**
 * Rows per INSERT statement: 11,000 parameters, well under SQLite's 32,766 and PostgreSQL's 65,535 bound
 * parameters. Statements of 250 to 2,978 rows loaded 156,000 rows equally fast on both engines.
 */
const rowsPerStatement = 1_000;
const progressEvery = 50_000;

type Batch = Array<string | null>;

interface ParsedFile {
  batches: Batch[];
  rowsRead: number;
  rowsRejected: number;
  rejections: RowRejection[];
  sha256: string;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

async function readCatalogue(source: CatalogueSource, maxRejectedShare: number, log: (message: string) => void): Promise<ParsedFile> {
  const parsed: ParsedFile = { batches: [], rowsRead: 0, rowsRejected: 0, rejections: [], sha256: '' };
  const counts = () => ({
    rowsRead: parsed.rowsRead,
    rowsRejected: parsed.rowsRejected,
    rejections: parsed.rejections,
  });
  let batch: Batch = [];
  try {
    for await (const record of parseCatalogue(source.lines)) {
      parsed.rowsRead += 1;
      if (parsed.rowsRead % progressEvery === 0) log(`Códigos postales: ${parsed.rowsRead} filas leídas`);
      if (record.kind === 'rejected') {
        parsed.rowsRejected += 1;
        if (parsed.rejections.length < keptRejections) {
          parsed.rejections.push({ line: record.line, reason: record.reason });
        }
        continue;
      }
      for (const column of settlementColumns) batch.push(record.row[column]);
      if (batch.length === rowsPerStatement * settlementColumns.length) {
        parsed.batches.push(batch);
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof PostalImportError) throw new PostalImportError(error.message, counts(), { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    throw new PostalImportError(`No se pudo leer el archivo: ${reason}`, counts(), { cause: error });
  }
  if (batch.length > 0) parsed.batches.push(batch);
  parsed.sha256 = source.sha256();

  const rowsLoaded = parsed.rowsRead - parsed.rowsRejected;
  if (rowsLoaded === 0) {
    throw new PostalImportError(parsed.rowsRead === 0 ? 'El archivo no tiene filas después del encabezado.' : `Ninguna de las ${parsed.rowsRead} filas es válida.`, counts());
  }
  if (parsed.rowsRejected > parsed.rowsRead * maxRejectedShare) {
    const share = ((parsed.rowsRejected / parsed.rowsRead) * 100).toFixed(1);
    throw new PostalImportError(
      `Se rechazaron ${parsed.rowsRejected} de ${parsed.rowsRead} filas (${share} %), más del ` + `${(maxRejectedShare * 100).toFixed(1)} % permitido: el catálogo no se modificó.`,
      counts(),
    );
  }
  return parsed;
}

async function replaceCatalogue(trx: Transaction<PostalTables>, batches: Batch[]): Promise<void> {
  await trx.deleteFrom('postal_settlements').execute();
  // Compile each statement shape once through Kysely (dialect placeholders, quoting) and reuse its SQL text.
  const statements = new Map<number, string>();
  const template = Object.fromEntries(settlementColumns.map((column) => [column, ''])) as Record<SettlementColumn, string>;
  for (const batch of batches) {
    const rows = batch.length / settlementColumns.length;
    let statement = statements.get(rows);
    if (statement === undefined) {
      const compiled = trx
        .insertInto('postal_settlements')
        .values(Array.from({ length: rows }, () => template))
        .compile();
      if (compiled.parameters.length !== batch.length) {
        throw new Error(`compiled insert expects ${compiled.parameters.length} parameters, batch has ${batch.length}`);
      }
      statement = compiled.sql;
      statements.set(rows, statement);
    }
    await trx.executeQuery(CompiledQuery.raw(statement, batch));
  }
}

/**
 * Replaces the postal-code catalogue with the rows of a Correos de México catalogue file (official Latin-1
 * `CPdescarga.txt`, or the same columns as UTF-8 CSV/PSV; gzipped or not) and records the import.
 *
 * All or nothing: the file is read and validated completely before the database is touched, and the
 * replacement runs in one transaction. A file without a usable header, without valid rows or with more
 * rejected rows than `maxRejectedShare` throws PostalImportError and leaves the catalogue as it was.
 * Importing the same file again yields the same catalogue.
 */
export async function importPostalCatalogue<DB extends PostalTables>({ db, caches }: Cached<Kysely<DB>>, filePath: string, options: PostalImportOptions = {}): Promise<PostalImportReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const maxRejectedShare = options.maxRejectedShare ?? defaultMaxRejectedShare;
  if (!(maxRejectedShare >= 0 && maxRejectedShare <= 1)) {
    throw new RangeError(`maxRejectedShare must be between 0 and 1, got ${maxRejectedShare}`);
  }

  let source: CatalogueSource;
  try {
    source = await openCatalogue(filePath);
  } catch (error) {
    if (error instanceof PostalImportError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new PostalImportError(`No se pudo abrir el archivo ${filePath}: ${reason}`, {}, { cause: error });
  }
  let parsed: ParsedFile;
  try {
    parsed = await readCatalogue(source, maxRejectedShare, log);
  } finally {
    source.close();
  }
  const rowsLoaded = parsed.rowsRead - parsed.rowsRejected;
  const parsedAt = performance.now();
  const format = `${source.encoding() ?? 'vacío'}${source.gzipped ? ', gzip' : ''}`;
  log(`Códigos postales: archivo leído (${format}) en ${seconds(parsedAt - started)}`);

  await asPostalDb(db)
    .transaction()
    .execute(async (trx) => {
      await replaceCatalogue(trx, parsed.batches);
      await trx
        .insertInto('postal_catalogue_imports')
        .values({
          id: randomUUID(),
          source_name: options.sourceName ?? path.basename(filePath),
          sha256: parsed.sha256,
          rows_loaded: rowsLoaded,
          rows_rejected: parsed.rowsRejected,
          imported_at: new Date().toISOString(),
        })
        .execute();
    });
  clearPostalLookupCache(caches);

  const durationMs = performance.now() - started;
  log(`Códigos postales: ${rowsLoaded} filas guardadas en ${seconds(performance.now() - parsedAt)}`);
  return {
    rowsRead: parsed.rowsRead,
    rowsLoaded,
    rowsRejected: parsed.rowsRejected,
    rejections: parsed.rejections,
    durationMs,
    sha256: parsed.sha256,
  };
}

/** Number of settlements in the catalogue (0 before the first import). */
export async function countPostalSettlements<DB extends PostalTables>(db: Kysely<DB>): Promise<number> {
  const { count } = await asPostalDb(db)
    .selectFrom('postal_settlements')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}
