import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPostalImportCli } from '../../src/features/postal/cli.js';
import { countPostalSettlements } from '../../src/features/postal/import.js';
import { lookupPostalCode } from '../../src/features/postal/lookup.js';
import { sampleCatalogueFacts } from '../../src/features/postal/sample.js';
import { catalogueSnapshot, engines, officialColumns, officialRow, useSampleCatalogue, type TestDatabase } from './support.js';

const catalogue = useSampleCatalogue();

describe.each(engines)('postal:import command on $name', (engine) => {
  let database: TestDatabase;
  let out: string[];
  let err: string[];
  const run = (...argv: string[]) =>
    runPostalImportCli(argv, {
      openDb: () => database.db,
      caches: database.caches,
      keepOpen: true,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });

  beforeEach(async () => {
    database = await engine.open();
    out = [];
    err = [];
  });
  afterEach(async () => {
    await database.close();
  });

  it('imports a file and prints the summary line', async () => {
    expect(await run(catalogue.sampleFile)).toBe(0);
    expect(out).toEqual([expect.stringMatching(new RegExp(`^Códigos postales: ${sampleCatalogueFacts.handWrittenRows} filas cargadas, 0 rechazadas en \\d+\\.\\d\\d s$`))]);
    expect(err).toEqual([]);
    expect(await countPostalSettlements(database.db)).toBe(sampleCatalogueFacts.handWrittenRows);
  });

  it('prints the rejected lines of a file it loads', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => officialRow({ cp: '06700', asentamiento: `Colonia ${i}`, municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id: String(i + 1) }));
    const file = catalogue.folder.file(`un-rechazo-${engine.name}.txt`);
    await writeFile(file, [officialColumns, ...rows, '6700x|Mal|Colonia'].join('\n'));
    expect(await run(file)).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^Códigos postales: 30 filas cargadas, 1 rechazadas en /), 'Rechazos:', '  línea 32: la fila tiene 3 columnas y el encabezado 15']);
  });

  it('fails with exit code 1, the reason and the first rejections, leaving the catalogue as it was', async () => {
    await run(catalogue.sampleFile);
    const before = await catalogueSnapshot(database.db);
    const file = catalogue.folder.file(`malo-${engine.name}.txt`);
    await writeFile(file, `${officialColumns}\n123|Mal|Colonia|Cuauhtémoc|Ciudad de México|||09||||015|0001||\n`);
    out = [];
    expect(await run(file)).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual(['Códigos postales: no se importó el catálogo: Ninguna de las 1 filas es válida.', 'Rechazos:', '  línea 2: d_codigo no válido: "123" (se esperan 5 dígitos)']);
    expect(await catalogueSnapshot(database.db)).toEqual(before);
  });

  it('imports the project sample with --sample, and --if-empty skips a catalogue that has rows', async () => {
    expect(await run('--sample', '--if-empty')).toBe(0);
    expect(await lookupPostalCode(database, sampleCatalogueFacts.singleSettlement.cp)).toEqual(sampleCatalogueFacts.singleSettlement.settlements);
    expect(await run('--sample', '--if-empty')).toBe(0);
    expect(out.at(-1)).toBe(`Códigos postales: el catálogo ya tiene ${sampleCatalogueFacts.handWrittenRows} asentamientos; no se importó nada.`);
    const imports = await database.db.selectFrom('postal_catalogue_imports').select('source_name').execute();
    expect(imports).toEqual([{ source_name: 'CPdescarga-muestra.txt' }]);
  });

  it('honours --max-rejected-share', async () => {
    const file = catalogue.folder.file(`share-${engine.name}.txt`);
    const good = officialRow({ cp: '06700', asentamiento: 'Roma Norte', municipio: 'Cuauhtémoc', estado: 'Ciudad de México', id: '0171' });
    await writeFile(file, [officialColumns, good, '1|x'].join('\n'));
    expect(await run(file)).toBe(1);
    expect(await run(file, '--max-rejected-share=0.5')).toBe(0);
  });

  it('destroys the database it opened unless told to keep it open', async () => {
    let destroyed = 0;
    const observed = new Proxy(database.db, {
      get(target, property) {
        if (property === 'destroy')
          return async () => {
            destroyed += 1;
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await runPostalImportCli([catalogue.sampleFile], { openDb: () => observed, out: () => {} })).toBe(0);
    expect(destroyed).toBe(1);
    expect(await runPostalImportCli([catalogue.sampleFile], { openDb: () => observed, keepOpen: true, out: () => {} })).toBe(0);
    expect(destroyed).toBe(1);
  });
});

describe('postal:import usage', () => {
  const openDb = () => {
    throw new Error('the database must not be opened');
  };

  it.each([[[]], [['a.txt', 'b.txt']], [['--sample', 'a.txt']], [['--bogus']], [['a.txt', '--max-rejected-share=2']]])('exits 2 with the usage for %j', async (argv) => {
    const err: string[] = [];
    expect(await runPostalImportCli(argv, { openDb, err: (line) => err.push(line) })).toBe(2);
    expect(err.join('\n')).toContain('Uso: postal:import');
  });

  it('prints the usage for --help', async () => {
    const out: string[] = [];
    expect(await runPostalImportCli(['--help'], { openDb, out: (line) => out.push(line) })).toBe(0);
    expect(out.join('\n')).toContain('--max-rejected-share');
  });
});
