/**
 * The ICAO 9303 machine-readable zones read here, parsed and checked by our own code: TD1 (3 x 30, ID cards),
 * TD2 (2 x 36, ID cards), TD3 (2 x 44, passports), MRV-A (2 x 44) and MRV-B (2 x 36) visas. Check digits use
 * the 7-3-1 rule. Issuing and nationality codes are checked for shape only (three letters or fillers): an
 * unknown but well-formed code (a specimen's UTO) is not an error, and no code is changed into a known one.
 */

export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';

export const MRZ_SHAPE: Record<MrzFormat, { lines: number; length: number }> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
  MRVA: { lines: 2, length: 44 },
  MRVB: { lines: 2, length: 36 },
};

const CHAR_VALUES = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** ICAO 9303 check digit of a field: values 0-9, A-Z = 10-35, '<' = 0, weighted 7, 3, 1 repeating, mod 10. */
export function checkDigit(field: string): number {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const value = c === '<' ? 0 : CHAR_VALUES.indexOf(c);
    if (value < 0) return -1;
    sum += value * weights[i % 3]!;
  }
  return sum % 10;
}

/** Whether `digit` checks `field`; an empty (all filler) optional field may carry a filler instead of 0. */
export function checksField(field: string, digit: string | undefined, fillerAllowed = false): boolean {
  if (digit === undefined) return false;
  if (digit === '<') return fillerAllowed && /^<*$/.test(field);
  const expected = checkDigit(field);
  return expected >= 0 && digit === String(expected);
}

/** The format the lines have, from their count, length and document code; null when none fits. */
export function mrzFormatOf(lines: readonly string[]): MrzFormat | null {
  const first = lines[0] ?? '';
  if (!lines.every((l) => l.length === first.length)) return null;
  const visa = first.startsWith('V');
  if (lines.length === 3 && first.length === 30) return 'TD1';
  if (lines.length === 2 && first.length === 44) return visa ? 'MRVA' : 'TD3';
  if (lines.length === 2 && first.length === 36) return visa ? 'MRVB' : 'TD2';
  return null;
}

/** Names of the check digits a format carries. */
export type CheckDigitName = 'documentNumber' | 'birthDate' | 'expirationDate' | 'personalNumber' | 'composite';

export interface MrzFieldValue {
  value: string;
  /** 0..1: a value covered by a check digit that verifies is near 1; one whose digit fails is low. */
  confidence: number;
}

export interface MrzParse {
  format: MrzFormat;
  /** Every check digit verified and every field well formed. */
  valid: boolean;
  checkDigits: Partial<Record<CheckDigitName, boolean>>;
  /** Fields as printed (fillers trimmed; names with single spaces): documentCode, issuingState, documentNumber,
   * birthDate / expiryDate (YYMMDD), sex, nationality, surnames, givenNames, optionalData, optionalData2. */
  fields: Record<string, MrzFieldValue>;
  /** Fields not well formed (a letter in a date, a digit in a code...). */
  malformed: string[];
}

const trimFiller = (s: string): string => s.replace(/<+$/, '').replace(/^<+/, '');
const words = (s: string): string => s.split('<').filter(Boolean).join(' ');

/** 'MUESTRA<MUESTRA<<CARMEN<<<' → surnames 'MUESTRA MUESTRA', given names 'CARMEN'. */
export function splitName(field: string): { surnames: string; givenNames: string } {
  const trimmed = field.replace(/<+$/, '');
  const at = trimmed.indexOf('<<');
  if (at < 0) return { surnames: words(trimmed), givenNames: '' };
  return { surnames: words(trimmed.slice(0, at)), givenNames: words(trimmed.slice(at + 2)) };
}

const isDate = (s: string): boolean => {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= 31;
};
const isCode = (s: string): boolean => /^[A-Z<]{3}$/.test(s) && s[0] !== '<';
const isName = (s: string): boolean => /^[A-Z<]+$/.test(s);

interface Layout {
  documentCode: string;
  issuingState: string;
  name: string;
  number: string;
  numberCheck: string | undefined;
  birth: string;
  birthCheck: string | undefined;
  sex: string;
  expiry: string;
  expiryCheck: string | undefined;
  nationality: string;
  optional: string;
  optional2?: string;
  personal?: { field: string; check: string | undefined };
  composite?: { field: string; check: string | undefined };
}

/** TD1 line 1: a document number longer than 9 characters continues in the optional field (filler in the check). */
function td1Number(l1: string): { number: string; check: string | undefined; optional: string } {
  if (l1[14] !== '<' || l1[15] === '<' || l1[15] === undefined) {
    return { number: l1.slice(5, 14), check: l1[14], optional: l1.slice(15, 30) };
  }
  const rest = l1.slice(15, 30);
  const end = rest.indexOf('<');
  const tail = end < 0 ? rest : rest.slice(0, end);
  return { number: l1.slice(5, 14) + tail.slice(0, -1), check: tail.slice(-1), optional: rest.slice(tail.length) };
}

function layoutOf(format: MrzFormat, lines: readonly string[]): Layout {
  const l1 = lines[0]!;
  const l2 = lines[1]!;
  if (format === 'TD1') {
    const l3 = lines[2]!;
    const number = td1Number(l1);
    return {
      documentCode: l1.slice(0, 2),
      issuingState: l1.slice(2, 5),
      name: l3,
      number: number.number,
      numberCheck: number.check,
      birth: l2.slice(0, 6),
      birthCheck: l2[6],
      sex: l2[7]!,
      expiry: l2.slice(8, 14),
      expiryCheck: l2[14],
      nationality: l2.slice(15, 18),
      optional: number.optional,
      optional2: l2.slice(18, 29),
      composite: { field: l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), check: l2[29] },
    };
  }
  const length = MRZ_SHAPE[format].length;
  const layout: Layout = {
    documentCode: l1.slice(0, 2),
    issuingState: l1.slice(2, 5),
    name: l1.slice(5, length),
    number: l2.slice(0, 9),
    numberCheck: l2[9],
    nationality: l2.slice(10, 13),
    birth: l2.slice(13, 19),
    birthCheck: l2[19],
    sex: l2[20]!,
    expiry: l2.slice(21, 27),
    expiryCheck: l2[27],
    optional: l2.slice(28, format === 'TD3' ? 42 : format === 'TD2' ? 35 : length),
  };
  if (format === 'TD3') {
    layout.personal = { field: l2.slice(28, 42), check: l2[42] };
    layout.composite = { field: l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43), check: l2[43] };
  }
  if (format === 'TD2') {
    layout.composite = { field: l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35), check: l2[35] };
  }
  return layout;
}

export interface ParseOptions {
  /** Letters allowed in the sex position besides ICAO's M, F, X and '<' (the INE prints H for hombre). */
  extraSexLetters?: string;
  /** Mean OCR confidence (0-100) of each line, for fields no check digit covers. */
  lineConfidences?: readonly number[];
}

/** Parses and checks an MRZ; null when the lines fit no format. */
export function parseMrzLines(lines: readonly string[], options: ParseOptions = {}): MrzParse | null {
  const format = mrzFormatOf(lines);
  if (!format || !lines.every((l) => /^[A-Z0-9<]+$/.test(l))) return null;
  const layout = layoutOf(format, lines);
  const checkDigits: MrzParse['checkDigits'] = {
    documentNumber: checksField(layout.number, layout.numberCheck),
    birthDate: checksField(layout.birth, layout.birthCheck),
    expirationDate: checksField(layout.expiry, layout.expiryCheck),
  };
  if (layout.personal) checkDigits.personalNumber = checksField(layout.personal.field, layout.personal.check, true);
  if (layout.composite) checkDigits.composite = checksField(layout.composite.field, layout.composite.check);

  const malformed: string[] = [];
  const sexLetters = `MFX<${options.extraSexLetters ?? ''}`;
  if (!/^[A-Z][A-Z<]$/.test(layout.documentCode)) malformed.push('documentCode');
  if (!isCode(layout.issuingState)) malformed.push('issuingState');
  if (!isCode(layout.nationality)) malformed.push('nationality');
  if (!isDate(layout.birth)) malformed.push('birthDate');
  if (!isDate(layout.expiry)) malformed.push('expiryDate');
  if (!sexLetters.includes(layout.sex)) malformed.push('sex');
  if (!isName(layout.name) || /^<*$/.test(layout.name)) malformed.push('name');

  const valid = malformed.length === 0 && Object.values(checkDigits).every(Boolean);
  const lineConfidence = (line: number): number => {
    const c = options.lineConfidences?.[line];
    return c === undefined ? 0.8 : Math.max(0, Math.min(0.95, c / 100));
  };
  // Fields no digit covers: the OCR's own confidence of their line, lowered when the zone as a whole fails.
  const unchecked = (line: number) => Math.round(lineConfidence(line) * (valid ? 1 : 0.6) * 100) / 100;
  const checked = (ok: boolean | undefined) => (ok ? (checkDigits.composite === false ? 0.9 : 0.99) : 0.2);
  const nameLine = format === 'TD1' ? 2 : 0;
  const names = splitName(layout.name);
  const fields: Record<string, MrzFieldValue> = {
    documentCode: { value: trimFiller(layout.documentCode), confidence: unchecked(0) },
    issuingState: { value: trimFiller(layout.issuingState), confidence: unchecked(0) },
    documentNumber: { value: trimFiller(layout.number), confidence: checked(checkDigits.documentNumber) },
    birthDate: { value: layout.birth, confidence: checked(checkDigits.birthDate) },
    sex: { value: layout.sex, confidence: unchecked(1) },
    expiryDate: { value: layout.expiry, confidence: checked(checkDigits.expirationDate) },
    nationality: { value: trimFiller(layout.nationality), confidence: unchecked(1) },
    surnames: { value: names.surnames, confidence: unchecked(nameLine) },
    givenNames: { value: names.givenNames, confidence: unchecked(nameLine) },
    optionalData: {
      value: trimFiller(layout.personal?.field ?? layout.optional),
      confidence: layout.personal ? checked(checkDigits.personalNumber) : unchecked(format === 'TD1' ? 0 : 1),
    },
  };
  if (layout.optional2 !== undefined) fields.optionalData2 = { value: trimFiller(layout.optional2), confidence: unchecked(1) };
  return { format, valid, checkDigits, fields, malformed };
}
