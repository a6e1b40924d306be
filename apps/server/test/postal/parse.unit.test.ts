import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostalImportError } from '../../src/features/postal/errors.js';
import { detectDelimiter, splitFields } from '../../src/features/postal/fields.js';
import { parseCatalogue, type CatalogueRecord } from '../../src/features/postal/parse.js';
import { sampleCatalogueFacts, writeSampleCatalogue } from '../../src/features/postal/sample.js';
import { openCatalogue, sniffEncoding } from '../../src/features/postal/source.js';
import { officialColumns, officialRow, scratchFolder } from './support.js';

type Row = Extract<CatalogueRecord, { kind: 'row' }>;
type Rejected = Extract<CatalogueRecord, { kind: 'rejected' }>;

async function parseFile(file: string) {
  const source = await openCatalogue(file);
  const rows: Row[] = [];
  const rejected: Rejected[] = [];
  for await (const record of parseCatalogue(source.lines)) {
    if (record.kind === 'row') rows.push(record);
    else rejected.push(record);
  }
  return { rows, rejected, encoding: source.encoding(), gzipped: source.gzipped, sha256: source.sha256() };
}

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeAll(async () => {
  folder = await scratchFolder();
});
afterAll(async () => {
  await folder.remove();
});

describe('splitFields', () => {
  it('splits plain fields, keeping empty and trailing ones', () => {
    expect(splitFields('a|b||d|', '|')).toEqual(['a', 'b', '', 'd', '']);
    expect(splitFields('', ',')).toEqual(['']);
  });

  it('reads quoted fields with delimiters and doubled quotes inside', () => {
    expect(splitFields('06700,"Roma Norte, Sección 1","Colonia ""El Sol""",x', ',')).toEqual(['06700', 'Roma Norte, Sección 1', 'Colonia "El Sol"', 'x']);
    expect(splitFields('"",""""', ',')).toEqual(['', '"']);
    expect(splitFields('a, "b,c"', ',')).toEqual(['a', 'b,c']);
  });

  it('keeps quotes that do not open a field as literal text', () => {
    expect(splitFields('Colonia 5 de "Mayo"|x', '|')).toEqual(['Colonia 5 de "Mayo"', 'x']);
  });

  it('reports a quoted field still open at the end of the text', () => {
    expect(splitFields('a,"b', ',')).toBeUndefined();
    expect(splitFields('a,"b\nc"', ',')).toEqual(['a', 'b\nc']);
  });
});

describe('detectDelimiter', () => {
  it('picks the delimiter the header uses most', () => {
    expect(detectDelimiter(officialColumns)).toBe('|');
    expect(detectDelimiter('d_codigo,d_asenta,D_mnpio')).toBe(',');
    expect(detectDelimiter('d_codigo;d_asenta;D_mnpio')).toBe(';');
    expect(detectDelimiter('d_codigo\td_asenta\tD_mnpio')).toBe('\t');
    expect(detectDelimiter('d_codigo')).toBeUndefined();
  });
});

describe('sniffEncoding', () => {
  it('accepts strict UTF-8, even cut in the middle of a character, and falls back to Latin-1', () => {
    expect(sniffEncoding(Buffer.from('Cuauhtémoc', 'utf8'), true)).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('Cuauhtémoc', 'utf8').subarray(0, 9), false)).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('Cuauhtémoc', 'latin1'), true)).toBe('windows-1252');
  });
});

describe('parseCatalogue on the official format', () => {
  it('skips the notice line, maps D_mnpio case-insensitively and decodes Latin-1 accents and Ñ', async () => {
    const file = folder.file('CPdescarga.txt');
    await writeSampleCatalogue(file);
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from('Peñoles', 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from('Peñoles', 'utf8'))).toBe(false);

    const parsed = await parseFile(file);
    expect(parsed.encoding).toBe('windows-1252');
    expect(parsed.gzipped).toBe(false);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.rows).toHaveLength(sampleCatalogueFacts.handWrittenRows);
    expect(parsed.rows[0]?.line).toBe(3);
    expect(parsed.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

    const roma = parsed.rows.find((r) => r.row.d_codigo === '06700')?.row;
    expect(roma).toEqual({
      d_codigo: '06700',
      d_asenta: 'Roma Norte',
      d_tipo_asenta: 'Colonia',
      d_mnpio: 'Cuauhtémoc',
      d_estado: 'Ciudad de México',
      d_ciudad: 'Ciudad de México',
      d_zona: 'Urbano',
      c_estado: '09',
      c_mnpio: '015',
      id_asenta_cpcons: '0171',
      c_tipo_asenta: '09',
    });
    const penoles = parsed.rows.find((r) => r.row.d_codigo === '71360')?.row;
    expect(penoles).toMatchObject({ d_asenta: 'Santa María Peñoles', d_mnpio: 'Santa María Peñoles', d_ciudad: null });
  });

  it('reads the same file gzipped and hashes the compressed bytes', async () => {
    const plain = folder.file('plain.txt');
    await writeSampleCatalogue(plain);
    const gzipped = gzipSync(await readFile(plain));
    const file = folder.file('CPdescarga.txt.gz');
    await writeFile(file, gzipped);

    const parsed = await parseFile(file);
    expect(parsed.gzipped).toBe(true);
    expect(parsed.encoding).toBe('windows-1252');
    expect(parsed.rows.map((r) => r.row)).toEqual((await parseFile(plain)).rows.map((r) => r.row));
    expect(parsed.sha256).toBe(createHash('sha256').update(gzipped).digest('hex'));
  });
});

describe('parseCatalogue on UTF-8 CSV and PSV', () => {
  it('reads a UTF-8 CSV with a BOM, CRLF, quoted commas and doubled quotes', async () => {
    const file = folder.file('catalogo.csv');
    const csv = [
      'd_codigo,d_asenta,d_tipo_asenta,D_mnpio,d_estado,d_ciudad,c_estado,c_mnpio,id_asenta_cpcons,d_zona',
      '52140,"Bosques de la Cañada, Sección 2",Fraccionamiento,Metepec,México,Metepec,15,054,0040,Urbano',
      '52140,"Colonia ""El Sol""",Colonia,Metepec,México,Metepec,15,054,0041,Urbano',
      '',
    ].join('\r\n');
    await writeFile(file, `\uFEFF${csv}`, 'utf8');

    const parsed = await parseFile(file);
    expect(parsed.encoding).toBe('utf-8');
    expect(parsed.rejected).toEqual([]);
    expect(parsed.rows.map((r) => [r.line, r.row.d_asenta, r.row.d_estado, r.row.c_tipo_asenta])).toEqual([
      [2, 'Bosques de la Cañada, Sección 2', 'México', null],
      [3, 'Colonia "El Sol"', 'México', null],
    ]);
  });

  it('reads a UTF-8 PSV with the header on the first line', async () => {
    const file = folder.file('catalogo.psv');
    await writeFile(file, [officialColumns, officialRow({ cp: '06700', asentamiento: 'Roma Norte', municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id: '0171' })].join('\n'));
    const parsed = await parseFile(file);
    expect(parsed.encoding).toBe('utf-8');
    expect(parsed.rows.map((r) => [r.line, r.row.d_codigo, r.row.d_mnpio])).toEqual([[2, '06700', 'Cuauhtémoc']]);
  });

  it('reads a gzipped UTF-8 CSV', async () => {
    const file = folder.file('catalogo.csv.gz');
    await writeFile(file, gzipSync('d_codigo,d_asenta,D_mnpio,d_estado,c_estado,c_mnpio,id_asenta_cpcons\n97000,Mérida Centro,Mérida,Yucatán,31,050,0001\n'));
    const parsed = await parseFile(file);
    expect(parsed.gzipped).toBe(true);
    expect(parsed.rows.map((r) => r.row.d_asenta)).toEqual(['Mérida Centro']);
  });

  it('puts back the leading zeros a spreadsheet dropped', async () => {
    const file = folder.file('sin-ceros.csv');
    await writeFile(file, 'd_codigo,d_asenta,D_mnpio,d_estado,c_estado,c_mnpio,id_asenta_cpcons\n6700,Roma Norte,Cuauhtémoc,Ciudad de México,9,15,171\n');
    const parsed = await parseFile(file);
    expect(parsed.rows.map((r) => r.row)).toEqual([expect.objectContaining({ d_codigo: '06700', c_estado: '09', c_mnpio: '015', id_asenta_cpcons: '0171' })]);
  });

  it('keeps a quoted field that spans lines in one record', async () => {
    const file = folder.file('multilinea.csv');
    await writeFile(
      file,
      'd_codigo,d_asenta,D_mnpio,d_estado,c_estado,c_mnpio,id_asenta_cpcons\n01030,"Axotla\nNorte",Álvaro Obregón,Ciudad de México,09,010,0005\n01030,Florida,Álvaro Obregón,Ciudad de México,09,010,0006\n',
    );
    const parsed = await parseFile(file);
    expect(parsed.rows.map((r) => [r.line, r.row.d_asenta])).toEqual([
      [2, 'Axotla\nNorte'],
      [4, 'Florida'],
    ]);
  });
});

describe('parseCatalogue rejections', () => {
  it('rejects bad rows with their line number and reason, and keeps the good ones', async () => {
    const file = folder.file('rechazos.txt');
    const good = (id: string, cp = '06700') => officialRow({ cp, asentamiento: `Colonia ${id}`, municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id });
    await writeFile(
      file,
      [
        officialColumns,
        good('0001'),
        good('0002', '123'),
        good('0003', 'abcde'),
        officialRow({ cp: '06700', asentamiento: ' ', municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id: '0004' }),
        officialRow({ cp: '06700', asentamiento: 'Juárez', municipio: '', estado: 'Ciudad de México', id: '0005' }),
        '06700|Solo tres|Colonia',
        `${good('0006')}|extra`,
        good('0001'),
        '',
        good('0007'),
        '06700|"Sin cerrar|Colonia',
      ].join('\n'),
    );
    const parsed = await parseFile(file);
    expect(parsed.rows.map((r) => [r.line, r.row.id_asenta_cpcons])).toEqual([
      [2, '0001'],
      [11, '0007'],
    ]);
    expect(parsed.rejected).toEqual([
      { kind: 'rejected', line: 3, reason: 'd_codigo no válido: "123" (se esperan 5 dígitos)' },
      { kind: 'rejected', line: 4, reason: 'd_codigo no válido: "abcde" (se esperan 5 dígitos)' },
      { kind: 'rejected', line: 5, reason: 'd_asenta vacío' },
      { kind: 'rejected', line: 6, reason: 'd_mnpio vacío' },
      { kind: 'rejected', line: 7, reason: 'la fila tiene 3 columnas y el encabezado 15' },
      { kind: 'rejected', line: 8, reason: 'la fila tiene 16 columnas y el encabezado 15' },
      { kind: 'rejected', line: 9, reason: 'repite d_codigo, c_estado, c_mnpio e id_asenta_cpcons de la línea 2' },
      { kind: 'rejected', line: 12, reason: 'comillas sin cerrar al final del archivo' },
    ]);
  });

  it('refuses a file without a header line', async () => {
    const file = folder.file('sin-encabezado.txt');
    await writeFile(file, ['Un aviso', '06700|Roma Norte|Colonia|Cuauhtémoc|Ciudad de México'].join('\n'));
    await expect(parseFile(file)).rejects.toThrow(PostalImportError);
    await expect(parseFile(file)).rejects.toThrow(/encabezado \(con d_codigo\)/);
  });

  it('refuses a header missing required columns, naming them', async () => {
    const file = folder.file('columnas.csv');
    await writeFile(file, 'd_codigo,d_asenta,municipio,d_estado\n06700,Roma Norte,Cuauhtémoc,Ciudad de México\n');
    await expect(parseFile(file)).rejects.toThrow(/le faltan columnas: d_mnpio, c_estado, c_mnpio, id_asenta_cpcons/);
  });

  it('refuses an empty file', async () => {
    const file = folder.file('vacio.txt');
    await writeFile(file, '');
    await expect(parseFile(file)).rejects.toThrow(PostalImportError);
  });
});
