import { describe, expect, it } from 'vitest';
import { findLabels, readAddressBlock, readAnchored, regionText, serviceNumberIn, type PageLine } from '../../src/engines/ocr/fields/proof-anchored.js';

const word = (text: string, x0: number, y0: number, confidence = 95) => ({ text, confidence, box: { x0, y0, x1: x0 + text.length * 14, y1: y0 + 24 } });
const line = (y: number, ...words: Array<[string, number]>): PageLine => ({ words: words.map(([t, x]) => word(t, x, y)) });

describe('label-anchored bill reading', () => {
  it('finds the CFE labels, the longest first, tolerating one misread letter', () => {
    const labels = findLabels([
      line(80, ['Total', 1000], ['a', 1080], ['pagar', 1110], ['del', 1200], ['periodo', 1250], ['facturado', 1360]),
      line(300, ['Número', 1000], ['de', 1100], ['servici', 1140]),
      line(420, ['Fecha', 1000], ['límite', 1080], ['de', 1170], ['pago', 1210]),
      line(280, ['Nombre', 60], ['y', 160], ['Domicilio', 190]),
      line(600, ['Estado', 60], ['de', 160], ['cuenta', 200]),
    ]);
    expect(labels.map((l) => l.field).sort()).toEqual(['addressBlock', 'amountDue', 'dueDate', 'serviceNumber']);
  });
  it('reads values after their label, or below it, and leaves a value without its shape empty', async () => {
    const lines = [
      line(80, ['Total', 1000], ['a', 1080], ['pagar', 1110]),
      line(300, ['Número', 1000], ['de', 1100], ['servicio', 1140]),
      line(420, ['Fecha', 1000], ['límite', 1080], ['de', 1170], ['pago:', 1210], ['02', 1300], ['DIC', 1340], ['17', 1400]),
    ];
    const regions: Record<string, string[]> = { 80: ['$909.00'], 300: ['520 080 ......'] };
    const result = await readAnchored(lines, { width: 1700, height: 2200 }, async (region) => {
      const key = Object.keys(regions).find((y) => region.y0 > Number(y) && region.y0 < Number(y) + 60);
      return (key ? regions[key]! : []).map((t, i) => line(region.y0 + i * 30, [t, region.x0]));
    });
    expect(result.fields).toEqual({ amountDue: '$909.00', dueDate: '2017-12-02' });
    // The masked service number was looked for where its label says, not read, and left empty.
    expect(result.labelled.has('serviceNumber')).toBe(true);
  });
  it('reads the CFE name-and-address block by what each line holds, accents as printed', () => {
    expect(readAddressBlock(['EFRAÍN LÓPEZ MORALES', 'CALLE HIDALGO 1013', 'COL. JARDINES DE LA PAZ', 'C.P.43664', 'TULANCINGO DE BRAVO, HIDALGO'])).toEqual({
      holderName: 'EFRAÍN LÓPEZ MORALES', street: 'CALLE HIDALGO', exteriorNumber: '1013', settlement: 'JARDINES DE LA PAZ',
      postalCode: '43664', municipality: 'TULANCINGO DE BRAVO', state: 'HIDALGO',
    });
    expect(readAddressBlock(['GOMEZ PEREZ ANA', 'C.P.83000 HERMOSILLO, SON.'])).toMatchObject({ holderName: 'GOMEZ PEREZ ANA', postalCode: '83000', municipality: 'HERMOSILLO', state: 'SON.' });
    // A whited-out name and street: only the place line is read.
    expect(readAddressBlock(['HERMOSILLO, Son.'])).toEqual({ municipality: 'HERMOSILLO', state: 'SON.' });
  });
  it('drops a block line with a doubtful word rather than returning half of it', () => {
    const text = regionText([
      { words: [word('COL.', 0, 0), word('JARDINES', 60, 0), word('DE', 200, 0), word('LAPAZ', 240, 0, 30)] },
      { words: [word('|', 0, 40), word('HERMOSILLO,', 20, 40), word('Son.', 200, 40), word('|', 300, 40)] },
    ], 55);
    expect(text).toBe('HERMOSILLO, Son.');
  });
  it('takes a service number of 12 (CFE) or 10 (line) digits only', () => {
    expect(serviceNumberIn('438 829 731 966')).toBe('438 829 731 966');
    expect(serviceNumberIn('438 829 731 9606')).toBeUndefined();
    expect(serviceNumberIn('55 1234 5678')).toBe('55 1234 5678');
  });
});
