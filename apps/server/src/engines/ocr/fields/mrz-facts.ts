/** Facts read from an MRZ and their cross-check with the same facts printed elsewhere. */
import { plainForm } from '../lexicon.js';
import { mrzDate, mrzNameGivenFirst, mrzNameParts, type MrzFormat } from '../mrz-parse.js';
import type { MrzResult } from '../mrz.js';

export interface MrzFacts {
  documentNumber: string;
  birthDate: string | null;
  expiryDate: string | null;
  /** H or M (Mexican convention) from ICAO M/F or the INE's H/M. */
  sex: 'H' | 'M' | null;
  surnames: string[];
  given: string;
  nombreCompleto: string;
  trusted: { documentNumber: boolean; birthDate: boolean; expiryDate: boolean };
}

function nameField(format: MrzFormat, lines: readonly string[]): string {
  return format === 'TD1' ? (lines[2] ?? '') : (lines[0] ?? '').slice(5);
}

export function mrzFacts(mrz: MrzResult, today: Date): MrzFacts {
  const { format, lines } = mrz;
  const l0 = lines[0] ?? '';
  const l1 = lines[1] ?? '';
  const [numberField, birth, sexLetter, expiry] = format === 'TD1' ? [l0.slice(5, 14), l1.slice(0, 6), l1[7], l1.slice(8, 14)] : [l1.slice(0, 9), l1.slice(13, 19), l1[20], l1.slice(21, 27)];
  const ine = l0.startsWith('IDMEX');
  // ICAO M is male; on the INE, H is hombre and M is ambiguous between ICAO male and mujer.
  const sex = sexLetter === 'F' ? 'M' : sexLetter === 'H' ? 'H' : sexLetter === 'M' && !ine ? 'H' : null;
  const names = nameField(format, lines);
  const parts = mrzNameParts(names);
  return {
    documentNumber: numberField.replace(/<+$/, ''),
    birthDate: mrzDate(birth, 'birth', today),
    expiryDate: mrzDate(expiry, 'expiry', today),
    sex,
    surnames: parts.surnames,
    given: parts.given,
    nombreCompleto: mrzNameGivenFirst(names),
    trusted: {
      documentNumber: mrz.checkDigits.documentNumber === true,
      birthDate: mrz.checkDigits.birthDate === true,
      expiryDate: mrz.checkDigits.expirationDate === true,
    },
  };
}

/** The MRZ's ICAO transliteration of a printed name: no accents, Ñ as N, only letters and spaces. */
export function mrzTransliteration(text: string): string {
  return plainForm(text.toUpperCase())
    .replace(/[^A-Z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * One value from two readings of the same fact. Agreement keeps the printed value; on disagreement a
 * warning names the field and the MRZ wins only when its check digit covers the value. A value missing
 * from the print is taken from the MRZ.
 */
export function reconcile(field: string, printed: string, fromMrz: string | null, mrzTrusted: boolean, warnings: string[], compare: (a: string, b: string) => boolean = (a, b) => a === b): string {
  if (!fromMrz) return printed;
  if (!printed) return fromMrz;
  if (compare(printed, fromMrz)) return printed;
  warnings.push(`mrz_front_mismatch:${field}`);
  return mrzTrusted ? fromMrz : printed;
}

/** The printed names as the MRZ name field writes them (ICAO 9303: given names truncated first). */
export function printedAsMrzName(surnames: string[], given: string, width: number): string {
  const field = (s: string) => mrzTransliteration(s).replace(/ /g, '<');
  const primary = surnames.filter(Boolean).map(field).join('<');
  const secondary = field(given);
  const full = `${primary}<<${secondary}`;
  if (full.length <= width) return full;
  const room = width - primary.length - 2;
  return room > 0 ? `${primary}<<${secondary.slice(0, room)}` : primary.slice(0, width);
}

/** Whether the printed names and the MRZ name field agree (after transliteration and truncation). */
export function sameMrzName(surnames: string[], given: string, mrz: MrzResult): boolean {
  const field = nameField(mrz.format, mrz.lines);
  return printedAsMrzName(surnames, given, field.length).replace(/<+$/, '') === field.replace(/<+$/, '');
}

/** Letters the legacy engine reads in place of others in MRZ names: printed → read. */
const LEGACY_MISREADS: Record<string, string> = {
  M: 'HN',
  W: 'NV',
  B: 'R8E',
  O: 'DQ0',
  D: 'O0',
  E: 'F',
  G: 'C6',
  S: '5',
};

/**
 * The MRZ lines with the name field taken from the printed names, when the two differ only where the
 * legacy engine is known to misread the printed letter (M read as H, W as N...). The name field has no
 * check digit, so the LSTM reading of the print is the better witness there. Null when nothing changes
 * or when any difference is of another kind.
 */
export function correctMrzNameFromPrint(mrz: MrzResult, surnames: string[], given: string): string[] | null {
  const index = mrz.format === 'TD1' ? 2 : 0;
  const offset = mrz.format === 'TD1' ? 0 : 5;
  const field = nameField(mrz.format, mrz.lines);
  const printed = printedAsMrzName(surnames, given, field.length).padEnd(field.length, '<');
  if (printed === field || printed.replace(/</g, '') === '') return null;
  for (let i = 0; i < field.length; i++) {
    if (printed[i] !== field[i] && !(LEGACY_MISREADS[printed[i]!] ?? '').includes(field[i]!)) return null;
  }
  const lines = [...mrz.lines];
  const line = lines[index]!;
  lines[index] = line.slice(0, offset) + printed + line.slice(offset + field.length);
  return lines;
}

/**
 * A back side's MRZ read against its front: the front's printed text fields, the MRZ lines with the name
 * corrected from the print when only known misreads differ, and the name cross-check.
 */
export function mrzAgainstFront(mrz: MrzResult, front: Record<string, string | boolean> | undefined) {
  const text = (key: string) => (typeof front?.[key] === 'string' ? (front[key] as string) : '');
  const surnames = [text('apellidoPaterno'), text('apellidoMaterno')];
  const corrected = front && surnames[0] ? correctMrzNameFromPrint(mrz, surnames, text('nombres')) : null;
  return {
    text,
    corrected,
    lines: corrected ?? mrz.lines,
    /** Adds the name mismatch warning when the printed name is not the MRZ's (a corrected name already agrees). */
    checkName(warnings: string[]) {
      if (!corrected && surnames[0] && !sameMrzName(surnames, text('nombres'), mrz)) warnings.push('mrz_front_mismatch:nombreCompleto');
    },
  };
}
