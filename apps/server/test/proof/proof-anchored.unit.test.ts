import { describe, expect, it } from 'vitest';
import { findLabels, readAddressBlock, readAnchored, regionBelow, regionText, serviceNumberIn, type PageLine } from '../../src/engines/ocr/fields/proof-anchored.js';

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
      holderName: 'EFRAÍN LÓPEZ MORALES',
      street: 'CALLE HIDALGO',
      exteriorNumber: '1013',
      settlement: 'JARDINES DE LA PAZ',
      postalCode: '43664',
      municipality: 'TULANCINGO DE BRAVO',
      state: 'HIDALGO',
    });
    expect(readAddressBlock(['GOMEZ PEREZ ANA', 'C.P.83000 HERMOSILLO, SON.'])).toMatchObject({ holderName: 'GOMEZ PEREZ ANA', postalCode: '83000', municipality: 'HERMOSILLO', state: 'SON.' });
    // A whited-out name and street: only the place line is read.
    expect(readAddressBlock(['HERMOSILLO, Son.'])).toEqual({ municipality: 'HERMOSILLO', state: 'SON.' });
  });
  it('drops a block line with a doubtful word rather than returning half of it', () => {
    const text = regionText(
      [
        { words: [word('COL.', 0, 0), word('JARDINES', 60, 0), word('DE', 200, 0), word('LAPAZ', 240, 0, 30)] },
        { words: [word('|', 0, 40), word('HERMOSILLO,', 20, 40), word('Son.', 200, 40), word('|', 300, 40)] },
      ],
      55,
    );
    expect(text).toBe('HERMOSILLO, Son.');
  });
  it('takes a service number of 12 (CFE) or 10 (line) digits only', () => {
    expect(serviceNumberIn('438 829 731 966')).toBe('438 829 731 966');
    expect(serviceNumberIn('438 829 731 9606')).toBeUndefined();
    expect(serviceNumberIn('55 1234 5678')).toBe('55 1234 5678');
  });
  it('reads a label printed on a band under the band, within its box, down to the next band', async () => {
    // CFE's period table: 'Periodo / Consumo' stacked white on green, the first line lost to the OCR ('Permos'),
    // the period on three lines under the band.
    const band = { x0: 950, y0: 840, x1: 1600, y1: 912 };
    const next = { x0: 950, y0: 1120, x1: 1600, y1: 1170 };
    const lines: PageLine[] = [
      { ...line(850, ['Permos', 1010]), band },
      { ...line(880, ['Conmumo', 1010], ['Días', 1200], ['Promedio', 1280]), band },
      // The same word on paper, or not first on its band line, is no label.
      line(700, ['Consumo', 1010]),
      { ...line(800, ['Medición', 60], ['de', 200], ['consumo', 250]), band: { x0: 56, y0: 790, x1: 924, y1: 836 } },
    ];
    const labels = findLabels(lines);
    expect(labels.map((l) => [l.field, l.box.y0])).toEqual([['period', 880]]);
    const region = regionBelow(labels[0]!, labels, { width: 1700, height: 2200 }, [band, next]);
    expect(region.y0).toBe(914);
    expect(region.y1).toBeLessThanOrEqual(1120);
    expect(region.y1).toBeGreaterThanOrEqual(1050);
    expect(region.x0).toBeGreaterThanOrEqual(950);
    const result = await readAnchored(lines, { width: 1700, height: 2200 }, async (r) => (r.y0 === 914 ? ['15 SEP 17', 'AL', '13 NOV 17'] : []).map((t, i) => line(r.y0 + i * 40, [t, r.x0])), [
      band,
      next,
    ]);
    expect(result.fields).toEqual({ periodFrom: '2017-09-15', periodTo: '2017-11-13' });
  });
  it('takes a band the page read for a label read on the page itself', async () => {
    // 'Total a pagar' read by the page's own read, inside a band found on the page: the amount under the band
    // counts, the issuer's address beside the box does not.
    const band = { x0: 956, y0: 108, x1: 1604, y1: 160 };
    const lines = [line(123, ['Total', 1001], ['a', 1090], ['pagar', 1120])];
    const seen: Array<{ x0: number; y0: number; x1: number }> = [];
    const result = await readAnchored(
      lines,
      { width: 1700, height: 2200 },
      async (r) => {
        seen.push(r);
        return [line(r.y0 + 10, ['$607.68', r.x0 + 40])];
      },
      [band],
    );
    expect(result.fields).toEqual({ amountDue: '$607.68' });
    expect(seen[0]).toMatchObject({ x0: 956, y0: 162 });
    expect(seen[0]!.x1).toBeLessThanOrEqual(1604);
  });
  it('takes no name from a block of a single line', () => {
    expect(readAddressBlock(['HERMOSILLO. SON.'])).toEqual({});
  });
  it('reads the French and US twins of the issue date, amount and due date as printed', async () => {
    const lines = [
      line(1002, ['Facture', 880], ['du', 1118], ['29/01/2021', 1207]),
      line(1300, ['Facture', 886], ['TTC', 1077], ['1479,85', 1942], ['E', 2146]),
      line(1408, ['a', 884], ['payer', 927], ['(TTC)', 1073], ['1479,85', 1500], ['€', 1620]),
      line(634, ['Amount', 964], ['Due', 1100], ['By', 1170], ['Jul', 1214], ['27,', 1265], ['2011', 1320], ['$191.69', 2011]),
    ];
    const result = await readAnchored(lines, { width: 2400, height: 3000 }, async () => []);
    // The euro sign read as 'E' is not taken for one; the amount is returned as printed, decimal comma and sign.
    expect(result.fields).toEqual({ issueDate: '2021-01-29', amountDue: '1479,85 €', dueDate: '2011-07-27' });
  });
  it('takes the amount at the end of the US "Amount Due By" row when no other label gives it', async () => {
    const lines = [line(634, ['Amount', 964], ['Due', 1100], ['By', 1170], ['Jul', 1214], ['27,', 1265], ['2011', 1320], ['$191.69', 2011])];
    const result = await readAnchored(lines, { width: 2400, height: 3000 }, async () => []);
    expect(result.fields).toEqual({ dueDate: '2011-07-27', amountDue: '$191.69' });
  });
  it('reads US and French address blocks by their own conventions: number first, then the place line', () => {
    expect(readAddressBlock(['CUSTOMER', '123 MAIN ST', 'ANYTOWN, PA 18062'])).toEqual({ street: 'MAIN ST', exteriorNumber: '123', municipality: 'ANYTOWN', state: 'PA', postalCode: '18062' });
    expect(readAddressBlock(['JANE Q PUBLIC', '4500 W ELM AVE', 'SPRINGFIELD, IL 62704-1234'])).toEqual({
      holderName: 'JANE Q PUBLIC',
      street: 'W ELM AVE',
      exteriorNumber: '4500',
      municipality: 'SPRINGFIELD',
      state: 'IL',
      postalCode: '62704',
    });
    expect(readAddressBlock(['JOHN DOE', "123 RUE DE L'IMAGINAIRE", '75001 PARIS'])).toEqual({
      holderName: 'JOHN DOE',
      street: "RUE DE L'IMAGINAIRE",
      exteriorNumber: '123',
      postalCode: '75001',
      municipality: 'PARIS',
    });
    expect(readAddressBlock(['12 AVENUE DES RÊVES', '69003 LYON CEDEX 03'])).toEqual({ street: 'AVENUE DES RÊVES', exteriorNumber: '12', postalCode: '69003', municipality: 'LYON' });
    // Its place line lost (a phone photo): a street starting with three digits or more is still number first, while
    // a Mexican street named by a date keeps its name.
    expect(readAddressBlock(['JANE Q PUBLIC', '2289 WASHINGTON AVE'])).toMatchObject({ street: 'WASHINGTON AVE', exteriorNumber: '2289' });
    // Its street line lost: the US place line is still the place, never a street numbered by its ZIP.
    expect(readAddressBlock(['MARIA FERNANDA ESPINOZA', 'AUSTIN, TX 78701'])).toEqual({ holderName: 'MARIA FERNANDA ESPINOZA', municipality: 'AUSTIN', state: 'TX', postalCode: '78701' });
    expect(readAddressBlock(['ANA GOMEZ PEREZ', '16 DE SEPTIEMBRE', 'C.P. 06600 CUAUHTEMOC, CDMX'])).toMatchObject({ street: '16 DE SEPTIEMBRE', postalCode: '06600' });
    // A Mexican block printing its postal code without 'C.P.' keeps the Mexican reading (street name first).
    expect(readAddressBlock(['ANA GOMEZ PEREZ', 'AV JUAREZ 123', 'COL CENTRO', '06600 CUAUHTEMOC'])).toMatchObject({ street: 'AV JUAREZ', exteriorNumber: '123', settlement: 'CENTRO' });
  });
  it("reads the holder's mailing block under the name found by 'Nom du client', never the issuer's block", async () => {
    const lines = [
      line(440, ['Customer', 75], ['Support', 200], ['Department', 330]),
      line(465, ['TSA', 75], ['12345', 130]),
      line(490, ['12345', 75], ['DEMOCITY', 160], ['CEDEX', 300]),
      line(1160, ['Nom', 76], ['du', 130], ['client', 170]),
      line(1200, ['JOHN', 75], ['DOE', 150]),
      line(1228, ['Lieu', 76], ['de', 140], ['consommation', 180]),
      line(1253, ['Référence', 76], ['acheminement', 220], [':', 400], ['98765432109876', 420]),
      line(409, ['JOHN', 914], ['DOE', 990]),
      line(448, ['123', 916], ['RUE', 970], ['DE', 1030], ["L'IMAGINAIRE", 1070]),
      line(480, ['75001', 915], ['PARIS', 1000]),
    ];
    const result = await readAnchored(lines, { width: 1800, height: 2600 }, async (region) =>
      region.y0 > 1170 && region.y0 < 1200 ? [line(region.y0 + 10, ['JOHN', region.x0], ['DOE', region.x0 + 80])] : [],
    );
    expect(result.fields).toEqual({ holderName: 'JOHN DOE', street: "RUE DE L'IMAGINAIRE", exteriorNumber: '123', postalCode: '75001', municipality: 'PARIS' });
  });

  it("finds a label of several words with one letter misread in a short word ('Mom du client'), not two", () => {
    expect(findLabels([line(1160, ['Mom', 76], ['du', 130], ['client', 170])]).map((l) => l.field)).toEqual(['holderName']);
    expect(findLabels([line(1160, ['Mom', 76], ['du', 130], ['clienl', 170])])).toEqual([]);
    // A short label must be read exactly word by word.
    expect(findLabels([line(80, ['Tetal:', 1000])])).toEqual([]);
  });

  it("takes a name from the region's first line only, none when that line is doubtful, and its accents from the mailing block", async () => {
    const lines = [
      line(409, ['JOSÉ', 914], ['DÍAZ', 990], ['DEL', 1070], ['VALLE', 1130]),
      line(448, ['127', 916], ['RUE', 970], ['DES', 1030], ['LILAS', 1090]),
      line(480, ['69003', 915], ['LYON', 1000]),
      line(1160, ['Nom', 76], ['du', 130], ['client', 170]),
    ];
    const under = (first: Array<[string, number]>, confidence: number) => async (region: { x0: number; y0: number }) =>
      region.y0 > 1170 && region.y0 < 1200
        ? [{ words: first.map(([t, dx]) => word(t, region.x0 + dx, region.y0 + 10, confidence)) }, line(region.y0 + 40, ['LIEU', region.x0], ['DE', region.x0 + 70], ['CONTEMMATION', region.x0 + 110])]
        : [];
    const unaccented = await readAnchored(
      lines,
      { width: 1800, height: 2600 },
      under(
        [
          ['JOSE', 0],
          ['DIAZ', 70],
          ['DEL', 140],
          ['VALLE', 200],
        ],
        95,
      ),
    );
    expect(unaccented.fields).toMatchObject({ holderName: 'JOSÉ DÍAZ DEL VALLE', street: 'RUE DES LILAS', postalCode: '69003' });
    const doubtful = await readAnchored(
      lines,
      { width: 1800, height: 2600 },
      under(
        [
          ['MARIA', 0],
          ['FENMANDA', 90],
        ],
        30,
      ),
    );
    expect(doubtful.fields.holderName).toBeUndefined();
  });

  it("reads a band's value from the band's own reading when the page read only its label", async () => {
    const band = { x0: 640, y0: 1390, x1: 1650, y1: 1450 };
    const lines: PageLine[] = [line(1408, ['a', 660], ['payer', 700], ['(TTC)', 800]), { ...line(1410, ['1838,89', 1450], ['€', 1570]), band }];
    const result = await readAnchored(lines, { width: 1800, height: 2600 }, async () => [], [band]);
    expect(result.fields).toEqual({ amountDue: '1838,89 €' });
  });
});
