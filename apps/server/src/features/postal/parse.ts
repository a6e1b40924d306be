import { PostalImportError } from './errors.js';
import { detectDelimiter, splitFields, type Delimiter } from './fields.js';
import type { PostalSettlementsTable, SettlementColumn } from './tables.js';

export type CatalogueRecord = { kind: 'row'; line: number; row: PostalSettlementsTable } | { kind: 'rejected'; line: number; reason: string };

/** The official file has one notice line before the header; allow a few more for hand-edited files. */
const headerSearchLines = 10;
/** A quoted field may span lines; past this many lines an unclosed quote is a broken row, not a long name. */
const maxLinesPerRecord = 20;

const requiredColumns = ['d_codigo', 'd_asenta', 'd_mnpio', 'd_estado', 'c_estado', 'c_mnpio', 'id_asenta_cpcons'] as const;
const optionalColumns = ['d_tipo_asenta', 'd_ciudad', 'd_zona', 'c_tipo_asenta'] as const;
const mandatoryValues = ['d_asenta', 'd_mnpio', 'd_estado', 'c_estado', 'c_mnpio', 'id_asenta_cpcons'] as const;

interface Layout {
  delimiter: Delimiter;
  /** Number of header fields. */
  width: number;
  /** Fields a row needs so that every required column is present. */
  requiredWidth: number;
  index: Partial<Record<SettlementColumn, number>>;
}

function readHeader(line: string, lineNumber: number): Layout {
  const delimiter = detectDelimiter(line);
  const names = delimiter ? splitFields(line, delimiter) : undefined;
  if (!delimiter || !names) {
    throw new PostalImportError(`La línea ${lineNumber} (encabezado) no está separada por '|', ',', ';' ni tabulador.`);
  }
  const index: Partial<Record<SettlementColumn, number>> = {};
  names.forEach((name, position) => {
    const column = name
      .trim()
      .replace(/^\uFEFF/, '')
      .toLowerCase();
    if (([...requiredColumns, ...optionalColumns] as string[]).includes(column)) {
      index[column as SettlementColumn] ??= position;
    }
  });
  const missing = requiredColumns.filter((column) => index[column] === undefined);
  if (missing.length > 0) {
    throw new PostalImportError(`Al encabezado (línea ${lineNumber}) le faltan columnas: ${missing.join(', ')}. ` + `Se esperan las del catálogo de Correos de México: ${requiredColumns.join(', ')}.`);
  }
  const requiredWidth = Math.max(...requiredColumns.map((column) => index[column] ?? 0)) + 1;
  return { delimiter, width: names.length, requiredWidth, index };
}

/** Spreadsheets drop leading zeros of numeric-looking codes; put them back. */
function padDigits(value: string, width: number): string {
  return value.length < width && /^\d+$/.test(value) ? value.padStart(width, '0') : value;
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function field(fields: readonly string[], position: number | undefined): string {
  return position === undefined ? '' : (fields[position] ?? '').trim();
}

function toRecord(fields: readonly string[], line: number, layout: Layout, seen: Map<string, number>): CatalogueRecord {
  if (fields.length > layout.width || fields.length < layout.requiredWidth) {
    const reason = `la fila tiene ${fields.length} columnas y el encabezado ${layout.width}`;
    return { kind: 'rejected', line, reason };
  }
  const { index } = layout;
  const rawCode = field(fields, index.d_codigo);
  if (!/^\d{4,5}$/.test(rawCode)) {
    return { kind: 'rejected', line, reason: `d_codigo no válido: ${quoted(rawCode)} (se esperan 5 dígitos)` };
  }
  const row: PostalSettlementsTable = {
    d_codigo: padDigits(rawCode, 5),
    d_asenta: field(fields, index.d_asenta),
    d_tipo_asenta: field(fields, index.d_tipo_asenta) || null,
    d_mnpio: field(fields, index.d_mnpio),
    d_estado: field(fields, index.d_estado),
    d_ciudad: field(fields, index.d_ciudad) || null,
    d_zona: field(fields, index.d_zona) || null,
    c_estado: padDigits(field(fields, index.c_estado), 2),
    c_mnpio: padDigits(field(fields, index.c_mnpio), 3),
    id_asenta_cpcons: padDigits(field(fields, index.id_asenta_cpcons), 4),
    c_tipo_asenta: field(fields, index.c_tipo_asenta) || null,
  };
  for (const column of mandatoryValues) {
    if (row[column] === '') return { kind: 'rejected', line, reason: `${column} vacío` };
  }
  const key = `${row.d_codigo}|${row.c_estado}|${row.c_mnpio}|${row.id_asenta_cpcons}`;
  const firstLine = seen.get(key);
  if (firstLine !== undefined) {
    return {
      kind: 'rejected',
      line,
      reason: `repite d_codigo, c_estado, c_mnpio e id_asenta_cpcons de la línea ${firstLine}`,
    };
  }
  seen.set(key, line);
  return { kind: 'row', line, row };
}

/**
 * Parses catalogue lines into validated rows and rejections (1-based line numbers of the file). Lines before
 * the header (the first line containing d_codigo, e.g. the official notice line) are skipped; blank lines are
 * ignored. Throws PostalImportError when there is no usable header.
 */
export async function* parseCatalogue(lines: AsyncIterable<string>): AsyncGenerator<CatalogueRecord> {
  let lineNumber = 0;
  let layout: Layout | undefined;
  const seen = new Map<string, number>();
  let open: { text: string; line: number; lines: number } | undefined;

  for await (const line of lines) {
    lineNumber += 1;
    if (!layout) {
      if (line.toLowerCase().includes('d_codigo')) layout = readHeader(line, lineNumber);
      else if (lineNumber >= headerSearchLines) break;
      continue;
    }
    if (!open && line.trim() === '') continue;
    const text = open ? `${open.text}\n${line}` : line;
    const start = open?.line ?? lineNumber;
    const textLines = (open?.lines ?? 0) + 1;
    const fields = splitFields(text, layout.delimiter);
    if (fields) {
      open = undefined;
      yield toRecord(fields, start, layout, seen);
    } else if (textLines >= maxLinesPerRecord) {
      open = undefined;
      yield { kind: 'rejected', line: start, reason: `comillas sin cerrar en ${maxLinesPerRecord} líneas` };
    } else {
      open = { text, line: start, lines: textLines };
    }
  }
  if (!layout) {
    throw new PostalImportError(
      `No se encontró la línea de encabezado (con d_codigo) en las primeras ${headerSearchLines} líneas: ` + 'el archivo no parece el catálogo de códigos postales de Correos de México.',
    );
  }
  if (open) yield { kind: 'rejected', line: open.line, reason: 'comillas sin cerrar al final del archivo' };
}
