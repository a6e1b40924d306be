import { describe, expect, it } from 'vitest';
import { assembleMrz, checkMrz, mergeNameField, mrzDate, mrzNameGivenFirst, repairMrz, type MrzTextLine } from '../../../src/engines/ocr/mrz-parse.js';
import { correctMrzNameFromPrint, printedAsMrzName } from '../../../src/engines/ocr/fields/mrz-facts.js';
import type { MrzResult } from '../../../src/engines/ocr/mrz.js';

// A valid INE TD1 (ICAO sex letters) and a valid Mexican passport TD3, as printed.
const INE = ['IDMEX5338842371<<3447342242468', '0109121M3112319MEX<<<<<<<<<<<3', 'DIAZ<YANEZ<<HECTOR<<<<<<<<<<<<'];
const PASSPORT = ['P<MEXAGUILAR<BRISENO<<JOAQUIN<<<<<<<<<<<<<<<', 'G509395450MEX0112226M2706188<<<<<<<<<<<<<<04'];

const CARD_WIDTH = 2000;
const TD1_PITCH = (2.54 / 85.6) * CARD_WIDTH;

/** A line as tesseract would report it: one glyph per character on the 2.54 mm grid, left at `x0`. */
function ocrLine(text: string, y: number, x0 = (CARD_WIDTH - 30 * TD1_PITCH) / 2 + TD1_PITCH / 2): MrzTextLine {
  return {
    text,
    y,
    top: y - 20,
    bottom: y + 20,
    glyphs: [...text].map((char, i) => ({ char, x: x0 + i * TD1_PITCH, confidence: 80 })),
  };
}

describe('assembleMrz', () => {
  it('keeps the bottom lines and recognises TD1', () => {
    const lines = [ocrLine('SOME PRINTED TEXT ABOVE THE ZONE', 100), ...INE.map((l, i) => ocrLine(l, 800 + i * 60))];
    expect(assembleMrz(lines, CARD_WIDTH)).toMatchObject({ format: 'TD1', lines: INE });
  });

  it('drops a speck read beside the zone and refills a dropped filler by glyph position', () => {
    const x0 = (CARD_WIDTH - 30 * TD1_PITCH) / 2 + TD1_PITCH / 2;
    const withSpeck = ocrLine(`L${INE[2]}`, 920, x0 - TD1_PITCH);
    const dropped = ocrLine(INE[1]!, 860);
    dropped.glyphs.splice(20, 1);
    dropped.text = dropped.glyphs.map((g) => g.char).join('');
    const result = assembleMrz([ocrLine(INE[0]!, 800), dropped, withSpeck], CARD_WIDTH);
    expect(result?.lines).toEqual(INE);
  });

  it('falls back to the character layout without glyph boxes', () => {
    const lines = PASSPORT.map((text, i) => ({ text: `${text}<`, y: 900 + i * 60, top: 0, bottom: 0, glyphs: [] }));
    expect(assembleMrz(lines, CARD_WIDTH)).toMatchObject({ format: 'TD3', lines: PASSPORT });
  });

  it('finds nothing in short lines', () => {
    expect(assembleMrz([ocrLine('CURP', 10)], CARD_WIDTH)).toBeNull();
  });
});

describe('repairMrz', () => {
  it('reads letters in digit places as digits and the reverse, by ICAO field', () => {
    const misread = ['IDMEXS338842371<<3447342242468', 'O1O9121M3112319MEX<<<<<<<<<<<3', 'DIAZ<YANEZ<<HECT0R<<<<<<<<<<<<'];
    expect(repairMrz('TD1', misread)).toEqual(INE);
  });

  it("keeps country codes as read: no list turns an unknown code (a specimen's UTO) into a known one", () => {
    const unknown = ['P<HEXAGUILAR<BRISENO<<JOAQUIN<<<<<<<<<<<<<<<', 'G509395450HEX0112226M2706188<<<<<<<<<<<<<<04'];
    expect(repairMrz('TD3', unknown)).toEqual(unknown);
    const utopia = ['P<UTOAGUILAR<BRISENO<<JOAQUIN<<<<<<<<<<<<<<<', 'G509395450UTO0112226M2706188<<<<<<<<<<<<<<04'];
    expect(repairMrz('TD3', utopia)).toEqual(utopia);
  });

  it('takes the nationality a Mexican document must carry when one confusable letter is off', () => {
    const misread = [PASSPORT[0]!, 'G509395450HEX0112226M2706188<<<<<<<<<<<<<<04'];
    expect(repairMrz('TD3', misread)).toEqual(PASSPORT);
    const ine = ['IDHEX5338842371<<3447342242468', '0109121M3112319NEX<<<<<<<<<<<3', INE[2]!];
    expect(repairMrz('TD1', ine)).toEqual(INE);
  });

  it('knows the Mexican passport number is a letter and eight digits', () => {
    const misread = [PASSPORT[0]!, '6S09395450MEX0112226M2706188<<<<<<<<<<<<<<04'];
    expect(repairMrz('TD3', misread)).toEqual(PASSPORT);
  });

  it('clears letters inside the trailing filler of the name field', () => {
    const misread = [INE[0]!, INE[1]!, 'DIAZ<YANEZ<<HECTOR<<<K<<<<L<<<'];
    expect(repairMrz('TD1', misread)[2]).toBe(INE[2]);
  });
});

describe('checkMrz', () => {
  it('validates every check digit', () => {
    const check = checkMrz(INE);
    expect(check.valid).toBe(true);
    expect(check.checkDigits).toEqual({ documentNumber: true, birthDate: true, expirationDate: true, composite: true });
  });

  it('accepts the INE sex letter H (hombre) although ICAO does not', () => {
    const withH = [INE[0]!, INE[1]!.replace('1M31', '1H31'), INE[2]!];
    expect(checkMrz(withH).valid).toBe(true);
  });

  it('reports the failing check digit', () => {
    const wrong = [INE[0]!, INE[1]!.replace('0109121', '0109131'), INE[2]!];
    const check = checkMrz(wrong);
    expect(check.valid).toBe(false);
    expect(check.checkDigits.birthDate).toBe(false);
    expect(check.checkDigits.documentNumber).toBe(true);
  });

  it('is invalid, not an exception, for lines of the wrong length', () => {
    expect(checkMrz(['IDMEX', '0109']).valid).toBe(false);
  });
});

describe('MRZ names', () => {
  it('takes the LSTM letters only when the fillers sit in the same places', () => {
    expect(mergeNameField('QUISPE<CONDORI<<NILFREDO<<<<<<', 'QUISPE<CONDORI<<WILFREDO<<<<')).toBe('QUISPE<CONDORI<<WILFREDO<<<<<<');
    expect(mergeNameField('QUISPE<CONDORI<<NILFREDO<<<<<<', 'QUISPEKCONDORI<<WILFREDO')).toBeNull();
  });

  it('writes names given first, as nombreCompleto', () => {
    expect(mrzNameGivenFirst('DIAZ<YANEZ<<HECTOR<<<<')).toBe('HECTOR DIAZ YANEZ');
    expect(mrzNameGivenFirst('DE<LA<CRUZ<<MARIA<JOSE')).toBe('MARIA JOSE DE LA CRUZ');
  });

  it('builds the name field from the print as ICAO truncates it', () => {
    expect(printedAsMrzName(['CASTAÑEDA', 'QUIÑONES'], 'JOSÉ MANUEL', 30)).toBe('CASTANEDA<QUINONES<<JOSE<MANUE');
  });

  it('corrects legacy misreads of the name field from the printed names only', () => {
    const mrz: MrzResult = {
      format: 'TD3',
      lines: ['P<MEXCRUZ<ROHERO<<TOHAS<<<<<<<<<<<<<<<<<<<<<', PASSPORT[1]!],
      valid: true,
      checkDigits: {},
      fields: {},
      located: true,
      attempts: 1,
    };
    expect(correctMrzNameFromPrint(mrz, ['CRUZ', 'ROMERO'], 'TOMÁS')?.[0]).toBe('P<MEXCRUZ<ROMERO<<TOMAS<<<<<<<<<<<<<<<<<<<<<');
    // A difference that is not a known legacy misread (print Z, MRZ S) changes nothing.
    expect(correctMrzNameFromPrint(mrz, ['CRUZ', 'ROMERO'], 'TOMAZ')).toBeNull();
  });
});

describe('mrzDate', () => {
  const today = new Date('2026-11-26T12:00:00Z');
  it('puts birth dates in the past and expiries in the 2000s', () => {
    expect(mrzDate('010912', 'birth', today)).toBe('12/09/2001');
    expect(mrzDate('800812', 'birth', today)).toBe('12/08/1980');
    expect(mrzDate('311231', 'expiry', today)).toBe('31/12/2031');
    expect(mrzDate('31123<', 'expiry', today)).toBeNull();
  });
});
