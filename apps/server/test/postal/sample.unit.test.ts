import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/features/postal/parse.js';
import { maxSampleRows, samplePostalCodes, sampleCatalogueFacts, writeSampleCatalogue } from '../../src/features/postal/sample.js';
import { openCatalogue } from '../../src/features/postal/source.js';
import { officialColumns, scratchFolder } from './support.js';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeAll(async () => {
  folder = await scratchFolder();
});
afterAll(async () => {
  await folder.remove();
});

describe('writeSampleCatalogue', () => {
  it('writes the official layout: Latin-1, CRLF, notice line, then the official header', async () => {
    const file = folder.file('muestra.txt');
    expect(await writeSampleCatalogue(file)).toBe(sampleCatalogueFacts.handWrittenRows);
    const lines = (await readFile(file)).toString('latin1').split('\r\n');
    expect(lines[0]).toMatch(/^El Catálogo Nacional de Códigos Postales/);
    expect(lines[1]).toBe(officialColumns);
    expect(lines).toHaveLength(sampleCatalogueFacts.handWrittenRows + 3);
    expect(lines.at(-1)).toBe('');
  });

  it('adds synthetic rows up to the requested count, never on a hand-written code, all valid and distinct', async () => {
    const file = folder.file('sintetico.txt');
    const rows = 20_000;
    expect(await writeSampleCatalogue(file, { rows })).toBe(rows);
    const source = await openCatalogue(file);
    const codes = new Set<string>();
    const syntheticOnHandWrittenCode: string[] = [];
    const oddNames: string[] = [];
    let valid = 0;
    for await (const record of parseCatalogue(source.lines)) {
      if (record.kind !== 'row') continue;
      valid += 1;
      codes.add(record.row.d_codigo);
      if (record.line <= sampleCatalogueFacts.handWrittenRows + 2) continue;
      if ((sampleCatalogueFacts.codes as readonly string[]).includes(record.row.d_codigo)) {
        syntheticOnHandWrittenCode.push(record.row.d_codigo);
      }
      if (!/^(Colonia Sintética|(Fraccionamiento|Barrio|Pueblo) Sintético) \d{5}-\d$/.test(record.row.d_asenta)) {
        oddNames.push(record.row.d_asenta);
      }
    }
    expect(syntheticOnHandWrittenCode).toEqual([]);
    expect(oddNames).toEqual([]);
    expect(valid).toBe(rows);
    expect(codes.has(sampleCatalogueFacts.unknownCode)).toBe(false);
    expect(samplePostalCodes(rows).sort()).toEqual([...codes.keys()].sort());
  });

  it('refuses a row count it cannot produce', async () => {
    await expect(writeSampleCatalogue(folder.file('x.txt'), { rows: maxSampleRows + 1 })).rejects.toThrow(RangeError);
    await expect(writeSampleCatalogue(folder.file('x.txt'), { rows: 1.5 })).rejects.toThrow(RangeError);
  });
});
