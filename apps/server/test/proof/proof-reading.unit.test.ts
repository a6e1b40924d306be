import { describe, expect, it } from 'vitest';
import { datesIn, parseProof, splitStreet } from '../../src/engines/ocr/fields/proof.js';
import { isRecent, namesMatch, proofReading } from '../../src/features/proof/proof-reading.js';

const holder = { nombreCompleto: 'NOEMÍ LÓPEZ ESPINOZA', nombres: 'NOEMÍ', apellidoPaterno: 'LÓPEZ', apellidoMaterno: 'ESPINOZA' };

describe('name on the proof vs the ID holder', () => {
  it('matches regardless of accents, order and one misread letter', () => {
    expect(namesMatch(holder, 'NOEMI LOPEZ ESPINOZA')).toBe(true);
    expect(namesMatch(holder, 'LOPEZ ESPINOZA NOEMI')).toBe(true);
    expect(namesMatch(holder, 'NOEMI LOPEZ ESPIN0ZA'.replace('0', 'O'))).toBe(true);
    expect(namesMatch(holder, 'NOEMl LOPEZ ESPlNOZA'.toUpperCase())).toBe(true);
    expect(namesMatch(holder, 'NOEMÍ LÓPEZ')).toBe(true);
  });
  it('does not match another person, a relative, or a single shared surname', () => {
    expect(namesMatch(holder, 'JULIÁN HERNÁNDEZ IBÁÑEZ')).toBe(false);
    expect(namesMatch(holder, 'MARTA LÓPEZ ESPINOZA')).toBe(false);
    expect(namesMatch(holder, 'CARLOS LÓPEZ')).toBe(false);
    expect(namesMatch(holder, 'NOEMÍ LÓPEZ ESPINOZA GARCÍA')).toBe(false);
  });
  it('is unknown without either name', () => {
    expect(namesMatch(holder, undefined)).toBeNull();
    expect(namesMatch({}, 'NOEMÍ LÓPEZ')).toBeNull();
  });
  it('works from the full name alone', () => {
    expect(namesMatch({ nombreCompleto: 'JUAN CARLOS PÉREZ DE LA ROSA' }, 'PEREZ DE LA ROSA JUAN CARLOS')).toBe(true);
    expect(namesMatch({ nombreCompleto: 'JUAN CARLOS PÉREZ DE LA ROSA' }, 'PEDRO RAMIREZ')).toBe(false);
  });
});

describe('recency (MESES_VIGENCIA_COMPROBANTE)', () => {
  const today = new Date('2026-11-26T12:00:00Z');
  it('accepts a bill up to N calendar months old', () => {
    expect(isRecent('2026-08-26', today, 3)).toBe(true);
    expect(isRecent('2026-11-01', today, 3)).toBe(true);
    expect(isRecent('2026-08-25', today, 3)).toBe(false);
    expect(isRecent('2025-11-26', today, 3)).toBe(false);
    expect(isRecent('2025-11-26', today, 12)).toBe(true);
  });
  it('refuses a future date and is unknown without one', () => {
    expect(isRecent('2027-01-10', today, 3)).toBe(false);
    expect(isRecent(undefined, today, 3)).toBeNull();
  });
  it('gives the outcome from both checks', () => {
    const read = { holderName: 'NOEMI LOPEZ ESPINOZA', issueDate: '2026-10-17', postalCode: '31081' };
    expect(proofReading(read, holder, today, 3)).toMatchObject({ outcome: 'passed', read: true, nameMatchesId: true, recent: true });
    expect(proofReading({ ...read, issueDate: '2026-01-02' }, holder, today, 3)).toMatchObject({ outcome: 'failed', recent: false });
    expect(proofReading(read, null, today, 3)).toMatchObject({ outcome: 'not_checked', nameMatchesId: null });
    expect(proofReading({ issueDate: '2026-10-17' }, holder, today, 3).read).toBe(false);
  });
});

describe('reading a bill from OCR lines', () => {
  it('parses the unlabelled electricity-bill block and the issue date', () => {
    const fields = parseProof([
      'ENERGÍA DEL VALLE',
      'NOEMÍ LÓPEZ ESPINOZA',
      'CALLE HIDALGO 59 INT 4',
      'COL JARDINES DE LA PAZ',
      'C.P. 31081 CHIHUAHUA, CHIHUAHUA',
      'PERIODO FACTURADO: 17 AGO 26 - 17 OCT 26',
      'FECHA DE EMISIÓN: 17 OCT 2026',
    ]);
    expect(fields).toEqual({
      holderName: 'NOEMÍ LÓPEZ ESPINOZA',
      street: 'CALLE HIDALGO',
      exteriorNumber: '59',
      interiorNumber: '4',
      settlement: 'JARDINES DE LA PAZ',
      postalCode: '31081',
      municipality: 'CHIHUAHUA',
      state: 'CHIHUAHUA',
      issueDate: '2026-10-17',
    });
  });
  it('keeps to the address column when another column shares its rows', () => {
    const line = (text: string, left: number, top: number) => ({ text, left, top, height: 40 });
    const fields = parseProof([
      line('NOEMÍ LÓPEZ ESPINOZA', 80, 230),
      line('TOTAL A PAGAR:', 1090, 245),
      line('CALLE HIDALGO 59', 80, 290),
      line('$ 199.60', 1090, 310),
      line('COL JARDINES DE LA PAZ', 80, 350),
      line('LÍMITE DE PAGO: 31 OCT 26', 1090, 400),
      line('C.P. 31081 CHIHUAHUA, CHIHUAHUA', 80, 410),
    ]);
    expect(fields).toMatchObject({ holderName: 'NOEMÍ LÓPEZ ESPINOZA', street: 'CALLE HIDALGO', exteriorNumber: '59', settlement: 'JARDINES DE LA PAZ' });
  });
  it('parses a labelled bill, OCR digit confusions in the postal code included', () => {
    const fields = parseProof([
      'Nombre: JULIÁN HERNÁNDEZ IBÁÑEZ',
      'Domicilio: CALLE ZARAGOZA 2326',
      'Colonia: LA PEÑUELA',
      'C.P.: 2699O',
      'Municipio: SALTILLO',
      'Estado: COAHUILA',
      'Fecha de emisión: 25/10/2026',
    ]);
    expect(fields).toEqual({
      holderName: 'JULIÁN HERNÁNDEZ IBÁÑEZ',
      street: 'CALLE ZARAGOZA',
      exteriorNumber: '2326',
      settlement: 'LA PEÑUELA',
      postalCode: '26990',
      municipality: 'SALTILLO',
      state: 'COAHUILA',
      issueDate: '2026-10-25',
    });
  });
  it('reads nothing from text that is not a bill', () => {
    expect(parseProof(['LOREM IPSUM', 'DOLOR SIT AMET'])).toEqual({});
  });
  it('reads Mexican date forms and street numbers', () => {
    expect(datesIn('del 3 de marzo de 2026 al 15/04/26')).toEqual(['2026-03-03', '2026-04-15']);
    expect(datesIn('31 FEB 2026')).toEqual([]);
    // A year no bill carries is a misread digit ('7076' for 2026 on a phone photo): no date rather than a wrong one.
    expect(datesIn('Amount Due By Nov 19, 7076')).toEqual([]);
    expect(datesIn('19/11/7076')).toEqual([]);
    expect(splitStreet('AV INSURGENTES SUR NO. 1234 DEPTO 5B')).toEqual({ street: 'AV INSURGENTES SUR', exteriorNumber: '1234', interiorNumber: '5B' });
    expect(splitStreet('PRIV LAS ROSAS S/N')).toEqual({ street: 'PRIV LAS ROSAS', exteriorNumber: 'S/N' });
  });
});

describe('another column on the postal-code line', () => {
  it('ends the place at a label or an amount read onto the same line', () => {
    expect(parseProof(['CALLE HIDALGO 59', 'COL ROMA NORTE', 'C.P. 06700 CUAUHTEMOC, CIUDAD DE MEXICO LIMITE DE PAGO: 31 OCT 26'])).toMatchObject({
      municipality: 'CUAUHTEMOC',
      state: 'CIUDAD DE MEXICO',
    });
    expect(parseProof(['C.P. 06700 CUAUHTEMOC, CIUDAD DE MEXICO $ 1,563.18'])).toMatchObject({ state: 'CIUDAD DE MEXICO' });
  });
});
