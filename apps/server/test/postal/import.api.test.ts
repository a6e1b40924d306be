import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostalImportError } from '../../src/features/postal/errors.js';
import { countPostalSettlements, importPostalCatalogue } from '../../src/features/postal/import.js';
import { lookupPostalCode } from '../../src/features/postal/lookup.js';
import { sampleCatalogueFacts, writeSampleCatalogue } from '../../src/features/postal/sample.js';
import { catalogueSnapshot, engines, officialColumns, officialRow, useSampleCatalogue, type TestDatabase } from './support.js';

const catalogue = useSampleCatalogue();

function roma(id: string, cp = '06700') {
  return officialRow({ cp, asentamiento: `Roma ${id}`, municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id });
}

describe.each(engines)('importPostalCatalogue on $name', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('loads the official-format sample and records the import', async () => {
    const messages: string[] = [];
    const report = await importPostalCatalogue(database, catalogue.sampleFile, { log: (message) => messages.push(message) });
    const hash = createHash('sha256')
      .update(await readFile(catalogue.sampleFile))
      .digest('hex');
    expect(report).toMatchObject({
      rowsRead: sampleCatalogueFacts.handWrittenRows,
      rowsLoaded: sampleCatalogueFacts.handWrittenRows,
      rowsRejected: 0,
      rejections: [],
      sha256: hash,
    });
    expect(report.durationMs).toBeGreaterThan(0);
    expect(messages.some((m) => m.includes('windows-1252'))).toBe(true);
    expect(await countPostalSettlements(database.db)).toBe(sampleCatalogueFacts.handWrittenRows);

    const imports = await database.db.selectFrom('postal_catalogue_imports').selectAll().execute();
    expect(imports).toEqual([
      {
        id: expect.any(String),
        source_name: 'CPdescarga.txt',
        sha256: hash,
        rows_loaded: sampleCatalogueFacts.handWrittenRows,
        rows_rejected: 0,
        imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it('is idempotent: the same file twice gives the same catalogue', async () => {
    await importPostalCatalogue(database, catalogue.sampleFile);
    const first = await catalogueSnapshot(database.db);
    await importPostalCatalogue(database, catalogue.sampleFile);
    expect(await catalogueSnapshot(database.db)).toEqual(first);
    expect(first).toHaveLength(sampleCatalogueFacts.handWrittenRows);
    const imports = await database.db.selectFrom('postal_catalogue_imports').select('sha256').execute();
    expect(imports).toHaveLength(2);
  });

  it('replaces the whole catalogue and the cached lookups with a new file', async () => {
    await importPostalCatalogue(database, catalogue.sampleFile);
    expect(await lookupPostalCode(database, '06700')).toEqual(sampleCatalogueFacts.singleSettlement.settlements);

    const csv = catalogue.folder.file('nuevo.csv.gz');
    await writeFile(csv, gzipSync('d_codigo,d_asenta,D_mnpio,d_estado,c_estado,c_mnpio,id_asenta_cpcons\n' + '06700,Roma Norte Ampliación,Cuauhtémoc,Ciudad de México,09,015,0900\n'));
    const report = await importPostalCatalogue(database, csv);
    expect(report.rowsLoaded).toBe(1);
    expect(await countPostalSettlements(database.db)).toBe(1);
    expect(await lookupPostalCode(database, '06700')).toEqual([{ municipio: 'Cuauhtémoc', estado: 'Ciudad de México', asentamiento: 'Roma Norte Ampliación' }]);
    expect(await lookupPostalCode(database, sampleCatalogueFacts.severalSettlements.cp)).toEqual([]);
  });

  it('loads a file whose rejected rows stay within the allowed share, reporting them', async () => {
    const lines = [officialColumns];
    for (let i = 1; i <= 39; i += 1) lines.push(roma(String(i).padStart(4, '0')));
    lines.push(roma('0040', '123'));
    const file = catalogue.folder.file('casi-bien.txt');
    await writeFile(file, lines.join('\n'));

    const report = await importPostalCatalogue(database, file);
    expect(report).toMatchObject({
      rowsRead: 40,
      rowsLoaded: 39,
      rowsRejected: 1,
      rejections: [{ line: 41, reason: 'd_codigo no válido: "123" (se esperan 5 dígitos)' }],
    });
    expect(await countPostalSettlements(database.db)).toBe(39);
    await expect(importPostalCatalogue(database, file, { maxRejectedShare: 0 })).rejects.toThrow(/más del 0.0 %/);
  });

  it('keeps at most the first 20 rejections in file order', async () => {
    const lines = [officialColumns];
    for (let i = 1; i <= 600; i += 1) lines.push(roma(String(i).padStart(4, '0')));
    for (let i = 0; i < 25; i += 1) lines.push(roma('9999', 'x'));
    const file = catalogue.folder.file('muchos-rechazos.txt');
    await writeFile(file, lines.join('\n'));
    const report = await importPostalCatalogue(database, file);
    expect(report.rowsRejected).toBe(25);
    expect(report.rejections.map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => 602 + i));
  });

  describe('a malformed file throws PostalImportError and leaves the previous catalogue untouched', () => {
    const malformed: Array<[string, string | Buffer, RegExp]> = [
      ['no header', 'Aviso\n06700|Roma Norte|Colonia|Cuauhtémoc|Ciudad de México\n', /encabezado \(con d_codigo\)/],
      ['missing columns', 'd_codigo|d_asenta|D_mnpio|d_estado\n06700|Roma Norte|Cuauhtémoc|Ciudad de México\n', /le faltan columnas/],
      ['no rows after the header', `${officialColumns}\n\n`, /no tiene filas/],
      ['every row bad', `${officialColumns}\n${roma('0001', '123')}\n${roma('0002', '')}\n`, /Ninguna de las 2 filas es válida/],
      [
        'too many rejected rows',
        [officialColumns, ...Array.from({ length: 18 }, (_, i) => roma(String(i + 1).padStart(4, '0'))), roma('0019', '1'), roma('0020', '2')].join('\n'),
        /Se rechazaron 2 de 20 filas \(10.0 %\), más del 5.0 % permitido/,
      ],
      ['a ZIP archive', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64)]), /es un ZIP/],
      ['a truncated gzip', gzipSync(`${officialColumns}\n${roma('0001')}\n`.repeat(200)).subarray(0, 60), /No se pudo leer el archivo/],
    ];

    it.each(malformed)('%s', async (_name, content, message) => {
      await importPostalCatalogue(database, catalogue.sampleFile);
      const before = await catalogueSnapshot(database.db);
      const file = catalogue.folder.file(`malformado-${engine.name}.txt`);
      await writeFile(file, content);

      const failure = importPostalCatalogue(database, file);
      await expect(failure).rejects.toThrow(PostalImportError);
      await expect(failure).rejects.toThrow(message);
      expect(await catalogueSnapshot(database.db)).toEqual(before);
      expect(await database.db.selectFrom('postal_catalogue_imports').select('id').execute()).toHaveLength(1);
      expect(await lookupPostalCode(database, '06700')).toEqual(sampleCatalogueFacts.singleSettlement.settlements);
    });

    it('a database failure in the middle of the load', async () => {
      await importPostalCatalogue(database, catalogue.sampleFile);
      const before = await catalogueSnapshot(database.db);
      const file = catalogue.folder.file(`grande-${engine.name}.txt`);
      await writeSampleCatalogue(file, { rows: 3_500 });
      let fullBatches = 0;
      const failing = database.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async ({ result }) => {
          if (result.numAffectedRows === 1_000n && ++fullBatches === 2) throw new Error('disk full');
          return result;
        },
      });
      await expect(importPostalCatalogue({ db: failing, caches: database.caches }, file)).rejects.toThrow('disk full');
      expect(fullBatches).toBe(2);
      expect(await catalogueSnapshot(database.db)).toEqual(before);
    });

    it('a file that does not exist', async () => {
      await importPostalCatalogue(database, catalogue.sampleFile);
      await expect(importPostalCatalogue(database, catalogue.folder.file('no-existe.txt'))).rejects.toThrow(/No se pudo abrir el archivo .*no-existe\.txt/);
      expect(await countPostalSettlements(database.db)).toBe(sampleCatalogueFacts.handWrittenRows);
    });

    it('carries the counts and first rejections of the refused file', async () => {
      const file = catalogue.folder.file(`todo-mal-${engine.name}.txt`);
      await writeFile(file, `${officialColumns}\n${roma('0001', '123')}\n`);
      const error = await importPostalCatalogue(database, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostalImportError);
      expect(error).toMatchObject({ rowsRead: 1, rowsRejected: 1, rejections: [{ line: 2 }] });
    });
  });
});
