import { AppCaches } from '../../caches.js';
import { PostalImportError, type RowRejection } from './errors.js';
import { countPostalSettlements, defaultMaxRejectedShare, importPostalCatalogue } from './import.js';
import { importSampleCatalogue } from './seed.js';
import type { Kysely } from 'kysely';
import type { PostalTables } from './tables.js';

export interface PostalImportCliDeps<DB extends PostalTables = PostalTables> {
  /** Opens the database, migrations already run. The command destroys it at the end unless `keepOpen`. */
  openDb: () => Kysely<DB> | Promise<Kysely<DB>>;
  keepOpen?: boolean;
  /** The caches the import empties: a running app's (a test), else this process's own (other processes see the new catalogue within their lookup cache's expiry). */
  caches?: AppCaches;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

export const postalImportUsage = [
  'Uso: postal:import -- <archivo> [--max-rejected-share=0.05] [--if-empty]',
  '     postal:import -- --sample [--if-empty]',
  '',
  '  <archivo>                 CPdescarga.txt de Correos de México (Latin-1, separado por |), o las mismas',
  '                            columnas en CSV/PSV UTF-8; gzip aceptado. Reemplaza todo el catálogo.',
  '  --sample                  importa el catálogo de muestra del proyecto (pruebas y demostración)',
  '  --if-empty                no importa nada si el catálogo ya tiene asentamientos',
  '  --max-rejected-share=N    proporción máxima de filas rechazadas, de 0 a 1',
  `                            (por omisión ${defaultMaxRejectedShare})`,
].join('\n');

interface CliArguments {
  file?: string;
  sample: boolean;
  ifEmpty: boolean;
  maxRejectedShare: number;
}

function parseArguments(argv: readonly string[]): CliArguments | string {
  const parsed: CliArguments = { sample: false, ifEmpty: false, maxRejectedShare: defaultMaxRejectedShare };
  for (const argument of argv) {
    if (argument === '--sample') parsed.sample = true;
    else if (argument === '--if-empty') parsed.ifEmpty = true;
    else if (argument.startsWith('--max-rejected-share=')) {
      const share = Number(argument.slice('--max-rejected-share='.length));
      if (!(share >= 0 && share <= 1)) return `--max-rejected-share debe estar entre 0 y 1: ${argument}`;
      parsed.maxRejectedShare = share;
    } else if (argument.startsWith('-')) return `opción desconocida: ${argument}`;
    else if (parsed.file === undefined) parsed.file = argument;
    else return `sobra un argumento: ${argument}`;
  }
  if (parsed.sample === (parsed.file !== undefined)) return 'indique un archivo o --sample';
  return parsed;
}

function rejectionLines(rejections: readonly RowRejection[], total: number): string[] {
  if (rejections.length === 0) return [];
  const header = total > rejections.length ? `Primeros ${rejections.length} rechazos de ${total}:` : 'Rechazos:';
  return [header, ...rejections.map(({ line, reason }) => `  línea ${line}: ${reason}`)];
}

const count = (value: number) => value.toLocaleString('es-MX');

/**
 * `npm run postal:import -- <file>`: replaces the postal-code catalogue and prints
 * "Códigos postales: N filas cargadas, M rechazadas en X s" and the first rejections.
 * Returns the exit code: 0 done (or skipped by --if-empty), 1 import failed, 2 usage error.
 */
export async function runPostalImportCli<DB extends PostalTables>(argv: readonly string[], deps: PostalImportCliDeps<DB>): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const err = deps.err ?? ((line: string) => console.error(line));
  if (argv.includes('--help') || argv.includes('-h')) {
    out(postalImportUsage);
    return 0;
  }
  const args = parseArguments(argv);
  if (typeof args === 'string') {
    err(`postal:import: ${args}`);
    err(postalImportUsage);
    return 2;
  }

  let db: Kysely<DB> | undefined;
  try {
    db = await deps.openDb();
    if (args.ifEmpty) {
      const settlements = await countPostalSettlements(db);
      if (settlements > 0) {
        out(`Códigos postales: el catálogo ya tiene ${count(settlements)} asentamientos; no se importó nada.`);
        return 0;
      }
    }
    if (!args.sample && args.file === undefined) throw new Error('no catalogue file');
    const target = { db, caches: deps.caches ?? new AppCaches() };
    const report = args.sample ? await importSampleCatalogue(target) : await importPostalCatalogue(target, args.file!, { maxRejectedShare: args.maxRejectedShare });
    out(`Códigos postales: ${count(report.rowsLoaded)} filas cargadas, ${count(report.rowsRejected)} rechazadas ` + `en ${(report.durationMs / 1000).toFixed(2)} s`);
    for (const line of rejectionLines(report.rejections, report.rowsRejected)) out(line);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    err(`Códigos postales: no se importó el catálogo: ${message}`);
    if (error instanceof PostalImportError) {
      for (const line of rejectionLines(error.rejections, error.rowsRejected)) err(line);
    }
    return 1;
  } finally {
    if (db && !deps.keepOpen) await db.destroy();
  }
}
