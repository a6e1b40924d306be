import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDigit, checksField, mrzFormatOf, parseMrzLines, splitName } from '../../../src/engines/ocr/mrz-formats.js';
import { REAL_DEV } from '../../support/real-dev.js';

// Fictitious zones of the imaginary state Utopia (UTO, the issuing code of ICAO specimens), one per format;
// their check digits were worked out by hand with the 7-3-1 rule.
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const MRVA = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'];
const MRVB = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'];
/** A TD1 whose 12-character document number runs on into the optional field (check digit after it). */
const TD1_LONG = ['I<UTOD23145890<1233<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<2', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

const value = (lines: string[], key: string) => parseMrzLines(lines)?.fields[key]?.value;

/** One character of one line changed. */
function changed(lines: string[], line: number, at: number, char: string): string[] {
  const out = [...lines];
  out[line] = out[line]!.slice(0, at) + char + out[line]!.slice(at + 1);
  return out;
}

describe('ICAO 9303 check digit (7-3-1)', () => {
  it('weights digits as themselves, letters A-Z as 10-35 and fillers as 0', () => {
    expect(checkDigit('740812')).toBe(2); // 7*7+4*3+0*1+8*7+1*3+2*1 = 122
    expect(checkDigit('A')).toBe(0); // 10*7 = 70
    expect(checkDigit('Z')).toBe(5); // 35*7 = 245
    expect(checkDigit('<<<')).toBe(0);
    expect(checkDigit('D23145890')).toBe(7);
    expect(checkDigit('abc')).toBe(-1);
  });

  it('accepts a filler as the digit of an empty optional field only', () => {
    expect(checksField('<<<<<<<<<<<<<<', '<', true)).toBe(true);
    expect(checksField('<<<<<<<<<<<<<<', '0', true)).toBe(true);
    expect(checksField('ZE184226B<<<<<', '<', true)).toBe(false);
    expect(checksField('740812', '<')).toBe(false);
  });
});

describe('MRZ formats', () => {
  it('tells the five formats apart by shape and document code', () => {
    expect(mrzFormatOf(TD1)).toBe('TD1');
    expect(mrzFormatOf(TD2)).toBe('TD2');
    expect(mrzFormatOf(TD3)).toBe('TD3');
    expect(mrzFormatOf(MRVA)).toBe('MRVA');
    expect(mrzFormatOf(MRVB)).toBe('MRVB');
    expect(mrzFormatOf([TD3[0]!, TD2[1]!])).toBeNull();
    expect(parseMrzLines(['P<UTO', 'L898'])).toBeNull();
  });

  it('parses every field of a TD1 and validates its four check digits', () => {
    const parsed = parseMrzLines(TD1)!;
    expect(parsed.valid).toBe(true);
    expect(parsed.checkDigits).toEqual({ documentNumber: true, birthDate: true, expirationDate: true, composite: true });
    expect(Object.fromEntries(Object.entries(parsed.fields).map(([k, v]) => [k, v.value]))).toEqual({
      documentCode: 'I',
      issuingState: 'UTO',
      documentNumber: 'D23145890',
      birthDate: '740812',
      sex: 'F',
      expiryDate: '120415',
      nationality: 'UTO',
      surnames: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
      optionalData: '',
      optionalData2: '',
    });
  });

  it('reads a TD1 document number that runs on into the optional field', () => {
    const parsed = parseMrzLines(TD1_LONG)!;
    expect(parsed.fields.documentNumber?.value).toBe('D23145890123');
    expect(parsed.valid).toBe(true);
  });

  it('parses a TD2 (2 x 36) with its composite digit', () => {
    const parsed = parseMrzLines(TD2)!;
    expect(parsed.valid).toBe(true);
    expect(Object.keys(parsed.checkDigits).sort()).toEqual(['birthDate', 'composite', 'documentNumber', 'expirationDate']);
    expect(value(TD2, 'documentNumber')).toBe('D23145890');
    expect(value(TD2, 'surnames')).toBe('ERIKSSON');
    expect(value(TD2, 'givenNames')).toBe('ANNA MARIA');
    expect(value(TD2, 'expiryDate')).toBe('120415');
  });

  it('parses a TD3 with its personal number and composite digits', () => {
    const parsed = parseMrzLines(TD3)!;
    expect(parsed.valid).toBe(true);
    expect(parsed.checkDigits.personalNumber).toBe(true);
    expect(value(TD3, 'documentCode')).toBe('P');
    expect(value(TD3, 'documentNumber')).toBe('L898902C3');
    expect(value(TD3, 'optionalData')).toBe('ZE184226B');
    expect(value(TD3, 'birthDate')).toBe('740812');
  });

  it('parses the MRV-A and MRV-B visas (no composite digit)', () => {
    for (const lines of [MRVA, MRVB]) {
      const parsed = parseMrzLines(lines)!;
      expect(parsed.valid).toBe(true);
      expect(parsed.checkDigits).toEqual({ documentNumber: true, birthDate: true, expirationDate: true });
      expect(value(lines, 'documentCode')).toBe('V');
      expect(value(lines, 'documentNumber')).toBe('L8988901C');
      expect(value(lines, 'nationality')).toBe('XXX');
      expect(value(lines, 'expiryDate')).toBe('961210');
    }
    expect(value(MRVA, 'optionalData')).toBe('6ZE184226B');
  });

  it('takes an unknown but well-formed issuing code as valid, and a malformed one as not', () => {
    expect(parseMrzLines(TD3)!.malformed).toEqual([]);
    const digitInCode = changed(TD3, 0, 3, '7');
    expect(parseMrzLines(digitInCode)!.malformed).toContain('issuingState');
    expect(parseMrzLines(digitInCode)!.valid).toBe(false);
  });

  it('fails the check digit of the field a misread changes, and the composite', () => {
    const misread = changed(TD3, 1, 14, '5'); // birth 740812 -> 750812
    const parsed = parseMrzLines(misread)!;
    expect(parsed.valid).toBe(false);
    expect(parsed.checkDigits).toMatchObject({ birthDate: false, composite: false, documentNumber: true });
    expect(parsed.fields.birthDate?.confidence).toBeLessThan(0.5);
    expect(parsed.fields.documentNumber?.confidence).toBeGreaterThan(0.8);
  });

  it('grades the fields no digit covers by the OCR confidence of their line', () => {
    const parsed = parseMrzLines(TD3, { lineConfidences: [70, 90] })!;
    expect(parsed.fields.surnames?.confidence).toBe(0.7);
    expect(parsed.fields.documentNumber?.confidence).toBe(0.99);
  });

  it("allows the INE's H for hombre only when asked", () => {
    const ine = ['IDMEX5338842371<<3447342242468', '0109121H3112319MEX<<<<<<<<<<<3', 'DIAZ<YANEZ<<HECTOR<<<<<<<<<<<<'];
    expect(parseMrzLines(ine)!.malformed).toEqual(['sex']);
    expect(parseMrzLines(ine, { extraSexLetters: 'H' })!.valid).toBe(true);
  });

  it('splits names at the double filler', () => {
    expect(splitName('MUESTRA<MUESTRA<<CARMEN<<<<<<<')).toEqual({ surnames: 'MUESTRA MUESTRA', givenNames: 'CARMEN' });
    expect(splitName('CITIZEN<<<<<')).toEqual({ surnames: 'CITIZEN', givenNames: '' });
  });
});

// The development set's transcribed zones as test vectors, read from ../shared at test time (never copied here).
const truthFiles = ['mrz', 'ids/es_dni'].map((folder) => path.join(REAL_DEV, folder, 'ground_truth.json'));
describe.skipIf(!truthFiles.every((f) => existsSync(f)))("the real development set's MRZ transcriptions", () => {
  const zones: Array<{ name: string; lines: string[]; digits?: Record<string, boolean> }> = [];
  for (const file of truthFiles.filter((f) => existsSync(f))) {
    const truth = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, Record<string, unknown>> };
    for (const [name, entry] of Object.entries(truth.files)) {
      const back = entry.back as Record<string, unknown> | undefined;
      const lines = (entry.mrz_td3 ?? back?.mrz_td1) as string[] | undefined;
      const digits = (entry.mrz_check_digits ?? back?.mrz_check_digits) as Record<string, boolean> | undefined;
      if (lines) zones.push({ name, lines, ...(digits ? { digits } : {}) });
    }
  }

  it('agrees with every check digit the transcriptions record (UTO included)', () => {
    expect(zones.length).toBeGreaterThanOrEqual(6);
    for (const zone of zones) {
      const parsed = parseMrzLines(zone.lines);
      expect(parsed, zone.name).not.toBeNull();
      for (const [name, ok] of Object.entries(zone.digits ?? {})) {
        const key =
          name === 'document_number' ? 'documentNumber' : name === 'birth_date' ? 'birthDate' : name === 'expiry_date' ? 'expirationDate' : name === 'personal_number' ? 'personalNumber' : 'composite';
        expect(parsed!.checkDigits[key], `${zone.name} ${name}`).toBe(ok);
      }
      expect(parsed!.valid, zone.name).toBe(Object.values(zone.digits ?? {}).every(Boolean));
    }
  });
});
