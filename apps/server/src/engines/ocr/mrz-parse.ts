/**
 * Pure MRZ handling: assembling OCR glyphs into fixed-length lines (TD1 3x30, TD2 and MRV-B 2x36, TD3 and
 * MRV-A 2x44), position-aware letter/digit repair by the ICAO 9303 field layout (plus the INE, Peru DNI and
 * Mexican passport number layouts), and validation by our own parser (mrz-formats.ts).
 */
import { MRZ_SHAPE, parseMrzLines, type MrzFieldValue, type MrzFormat } from './mrz-formats.js';
import { DIGIT_FOR_LETTER, LETTER_FOR_DIGIT } from './shapes.js';

export { MRZ_SHAPE, type MrzFormat } from './mrz-formats.js';

/** Width of the document each format is printed on (ICAO 9303): the character pitch is 2.54 mm on all. */
const DOCUMENT_WIDTH_MM: Record<MrzFormat, number> = { TD1: 85.6, TD2: 105, TD3: 125, MRVA: 120, MRVB: 105 };
const MRZ_PITCH_MM = 2.54;

export interface MrzGlyph {
  char: string;
  /** Centre of the glyph on the upright card, pixels. */
  x: number;
  confidence: number;
}

export interface MrzTextLine {
  text: string;
  glyphs: MrzGlyph[];
  /** Vertical centre on the card, pixels. */
  y: number;
  /** Vertical extent on the card, pixels. */
  top: number;
  bottom: number;
}

// --------------------------------------------------------------------------------------------------
// Assembling lines
// --------------------------------------------------------------------------------------------------

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Glyphs placed on the fixed character grid; empty cells become '<' (the filler OCR most often drops). */
function placeOnGrid(lines: MrzGlyph[][], length: number, cardWidth: number, format: MrzFormat): string[] | null {
  const prior = (MRZ_PITCH_MM / DOCUMENT_WIDTH_MM[format]) * cardWidth;
  const spacings: number[] = [];
  for (const glyphs of lines) {
    for (let i = 1; i < glyphs.length; i++) {
      const d = glyphs[i]!.x - glyphs[i - 1]!.x;
      if (d > prior * 0.7 && d < prior * 1.4) spacings.push(d);
    }
  }
  if (spacings.length < length / 2) return null;
  const pitch = median(spacings);
  const exact = lines.filter((g) => g.length === length);
  let x0: number;
  if (exact.length > 0) {
    x0 = median(exact.map((g) => g[0]!.x));
  } else {
    // Centred zone, then the sub-pitch phase shared by all glyphs.
    const guess = (cardWidth - length * pitch) / 2 + pitch / 2;
    let sin = 0;
    let cos = 0;
    for (const glyph of lines.flat()) {
      const phase = ((glyph.x - guess) / pitch) * 2 * Math.PI;
      sin += Math.sin(phase);
      cos += Math.cos(phase);
    }
    x0 = guess + (Math.atan2(sin, cos) / (2 * Math.PI)) * pitch;
  }
  const out: string[] = [];
  for (const glyphs of lines) {
    const cells: Array<MrzGlyph | null> = new Array<MrzGlyph | null>(length).fill(null);
    let outside = 0;
    for (const glyph of glyphs) {
      const position = (glyph.x - x0) / pitch;
      const column = Math.round(position);
      if (column < 0 || column >= length) {
        outside++;
        continue;
      }
      const current = cells[column];
      if (!current || glyph.confidence > current.confidence) cells[column] = glyph;
    }
    if (outside > 3) return null;
    out.push(cells.map((c) => c?.char ?? '<').join(''));
  }
  return out;
}

function fitByText(text: string, length: number, template: string): string {
  if (text.length === length) return text;
  if (text.length < length) return text.padEnd(length, '<');
  let best = text.slice(0, length);
  let bestScore = -1;
  for (let offset = 0; offset + length <= text.length; offset++) {
    const window = text.slice(offset, offset + length);
    let score = 0;
    for (let i = 0; i < length; i++) if (fitsClass(window[i]!, template[i] ?? 'X')) score++;
    if (score > bestScore) {
      bestScore = score;
      best = window;
    }
  }
  return best;
}

/**
 * The MRZ lines from OCR lines (top to bottom): the bottom-most lines long enough to be MRZ lines, each
 * brought to its exact length by glyph position on the character grid when glyph boxes are known.
 */
export interface AssembledMrz {
  format: MrzFormat;
  lines: string[];
  /** Vertical extent of each line on the card. */
  rows: Array<{ top: number; bottom: number }>;
  /** Mean OCR confidence (0-100) of each line's glyphs (0 when the read had no glyph boxes). */
  confidences: number[];
}

export function assembleMrz(ocrLines: MrzTextLine[], cardWidth: number): AssembledMrz | null {
  const candidates = ocrLines
    .map((l) => ({ ...l, text: l.text.replace(/\s+/g, '') }))
    .filter((l) => l.text.length >= 18)
    .sort((a, b) => a.y - b.y);
  if (candidates.length < 2) return null;
  const format = formatByLength(candidates);
  const { lines: count, length } = MRZ_SHAPE[format];
  if (candidates.length < count) return null;
  const chosen = candidates.slice(-count);
  const glyphLines = chosen.map((l) => l.glyphs.filter((g) => g.char.trim() !== '').sort((a, b) => a.x - b.x));
  const haveGlyphs = glyphLines.every((g, i) => g.length > 0 && g.map((x) => x.char).join('').length === chosen[i]!.text.length);
  const gridded = haveGlyphs ? placeOnGrid(glyphLines, length, cardWidth, format) : null;
  const templates = lineTemplates(
    format,
    chosen.map((l) => l.text),
  );
  const lines = gridded ?? chosen.map((l, i) => fitByText(l.text, length, templates[i] ?? ''));
  const confidences = glyphLines.map((g) => (g.length > 0 ? g.reduce((sum, x) => sum + x.confidence, 0) / g.length : 0));
  return { format, lines, rows: chosen.map((l) => ({ top: l.top, bottom: l.bottom })), confidences };
}

/**
 * Three lines of about 30 characters evenly spaced are a TD1; otherwise two lines, 44 or 36 characters long
 * by the longer of the two, a visa (MRV-A, MRV-B) when the document code starts with V.
 */
function formatByLength(candidates: Array<{ text: string; y: number }>): MrzFormat {
  const last3 = candidates.slice(-3);
  if (last3.length === 3 && last3.every((l) => l.text.length >= 24 && l.text.length <= 34)) {
    const [a, b, c] = last3.map((l) => l.y) as [number, number, number];
    const pitch = [b - a, c - b];
    if (Math.max(...pitch) < Math.min(...pitch) * 1.5) return 'TD1';
  }
  const [first, second] = candidates.slice(-2);
  const longest = Math.max(first?.text.length ?? 0, second?.text.length ?? 0);
  const visa = first?.text.startsWith('V') === true;
  if (longest >= 40) return visa ? 'MRVA' : 'TD3';
  if (longest >= 33) return visa ? 'MRVB' : 'TD2';
  return 'TD1';
}

// --------------------------------------------------------------------------------------------------
// Position-aware repair
// --------------------------------------------------------------------------------------------------

/**
 * Character classes by position: A letter or filler, N digit, C check digit, S sex, F filler only,
 * X anything.
 */
type CharClass = 'A' | 'N' | 'C' | 'S' | 'F' | 'X';

const TO_DIGIT = DIGIT_FOR_LETTER;
const TO_LETTER = LETTER_FOR_DIGIT;
/** Letters the legacy engine confuses with one another in country codes. */
const LETTER_CONFUSIONS: Record<string, string> = {
  H: 'MN',
  N: 'MH',
  M: 'NH',
  W: 'MN',
  O: 'DQ',
  D: 'O',
  Q: 'O',
  E: 'F',
  F: 'EP',
  P: 'FR',
  R: 'PB',
  B: 'RE',
  C: 'GO',
  G: 'C',
  U: 'V',
  V: 'UY',
  I: 'LT',
  L: 'I',
};

function fitsClass(char: string, cls: string): boolean {
  switch (cls) {
    case 'A':
      return /[A-Z<]/.test(char);
    case 'N':
      return /[0-9]/.test(char);
    case 'C':
      return /[0-9<]/.test(char);
    case 'S':
      return /[MFH<]/.test(char);
    case 'F':
      return char === '<';
    default:
      return true;
  }
}

const repeat = (cls: CharClass, n: number): string => cls.repeat(n);

/** Generic ICAO layout, refined for the INE (IDMEX), the Peru DNI (I<PER) and Mexican passports. */
export function lineTemplates(format: MrzFormat, lines: readonly string[]): string[] {
  const first = lines[0] ?? '';
  const issuer = issuerOf(format, first);
  if (format !== 'TD1') {
    const length = MRZ_SHAPE[format].length;
    const number = format === 'TD3' && issuer === 'MEX' ? `A${repeat('N', 8)}` : repeat('X', 9);
    const dates = `CAAA${repeat('N', 6)}CS${repeat('N', 6)}C`;
    const tail = format === 'TD3' ? `${repeat('X', 14)}CC` : format === 'TD2' ? `${repeat('X', 7)}C` : repeat('X', length - 28);
    return [`AAAAA${repeat('A', length - 5)}`, `${number}${dates}${tail}`];
  }
  let line1 = `AAAAA${repeat('X', 9)}C${repeat('X', 15)}`;
  if (issuer === 'MEX' && /^[I1][D0O]/.test(first)) line1 = `AAAAA${repeat('N', 9)}CFF${repeat('N', 13)}`;
  else if (issuer === 'PER') line1 = `AAAAA${repeat('N', 8)}XC${repeat('X', 15)}`;
  return [line1, `${repeat('N', 6)}CS${repeat('N', 6)}CAAA${repeat('X', 11)}C`, repeat('A', 30)];
}

function repairChar(char: string, cls: string): string {
  switch (cls) {
    case 'A':
      return TO_LETTER[char] ?? char;
    case 'N':
      return TO_DIGIT[char] ?? char;
    case 'C':
      return char === '<' ? char : (TO_DIGIT[char] ?? char);
    case 'S':
      return char === 'N' ? 'M' : char;
    case 'F':
      return '<';
    default:
      return char;
  }
}

/**
 * The nationality of a document whose issuer fixes it (an INE or Peru DNI, a Mexican passport), when the read
 * differs from it by one letter the legacy engine confuses. Any other code is kept as read: unknown codes
 * (a specimen's UTO) are valid, and no code is turned into another one from a list.
 */
function expectedCode(code: string, expected: string | null): string {
  if (!expected || code === expected) return code;
  for (let i = 0; i < code.length; i++) {
    const alternatives = LETTER_CONFUSIONS[code[i]!] ?? '';
    if (alternatives.includes(expected[i]!) && code.slice(0, i) + expected[i] + code.slice(i + 1) === expected) return expected;
  }
  return code;
}

/** Everything after the first run of three fillers in a name field is filler. */
function clearNameTail(field: string): string {
  const run = field.indexOf('<<<');
  return run < 0 ? field : field.slice(0, run) + '<'.repeat(field.length - run);
}

/** Stray letters inside a field that is otherwise filler (the legacy engine reads '<' as K, L, C or E). */
function clearFillerNoise(field: string): string {
  const fillers = [...field].filter((c) => c === '<').length;
  if (fillers < field.length * 0.7) return field;
  return field.replace(/(?<=<)[KLCEX](?=<|$)/g, '<');
}

/**
 * The issuing state as read, letters for digits; on a TD1 'ID' line (the INE's IDMEX) one confusable letter
 * away from MEX it is MEX, the only issuer of that code among the documents the flow reads.
 */
function issuerOf(format: MrzFormat, first: string): string {
  const code = [...first.slice(2, 5)].map((c) => TO_LETTER[c] ?? c).join('');
  return format === 'TD1' && /^[I1][D0O]/.test(first) ? expectedCode(code, 'MEX') : code;
}

/** Issuers whose documents read here always carry their own nationality. */
const SELF_NATIONAL = new Set(['MEX', 'PER']);

export function repairMrz(format: MrzFormat, input: readonly string[]): string[] {
  const templates = lineTemplates(format, input);
  const lines = input.map((line, i) => [...line].map((c, j) => repairChar(c, templates[i]?.[j] ?? 'X')).join(''));
  const set = (i: number, start: number, end: number, value: string) => {
    const line = lines[i]!;
    lines[i] = line.slice(0, start) + value + line.slice(end);
  };
  const issuer = issuerOf(format, lines[0]!);
  set(0, 2, 5, issuer);
  const nationalityExpected = SELF_NATIONAL.has(issuer) ? issuer : null;
  if (format !== 'TD1') {
    const length = MRZ_SHAPE[format].length;
    set(0, 5, length, clearNameTail(lines[0]!.slice(5)));
    const l1 = lines[1]!;
    set(1, 10, 13, expectedCode(l1.slice(10, 13), nationalityExpected));
    // H is no ICAO sex letter: on these pages it is the legacy engine's reading of M.
    if (l1[20] === 'H') set(1, 20, 21, 'M');
    const optionalEnd = format === 'TD3' ? 42 : format === 'TD2' ? 35 : length;
    set(1, 28, optionalEnd, clearFillerNoise(lines[1]!.slice(28, optionalEnd)));
    return lines;
  }
  set(0, 15, 30, clearFillerNoise(lines[0]!.slice(15, 30)));
  set(1, 15, 18, expectedCode(lines[1]!.slice(15, 18), nationalityExpected));
  set(1, 18, 29, clearFillerNoise(lines[1]!.slice(18, 29)));
  set(2, 0, 30, clearNameTail(lines[2]!));
  return lines;
}

// --------------------------------------------------------------------------------------------------
// Check-digit-guided correction
// --------------------------------------------------------------------------------------------------

/** The classic OCR confusions between a letter and a digit, both ways (0/O, 1/I, 2/Z, 5/S, 8/B, 6/G). */
const CONFUSABLE: Readonly<Record<string, string>> = { '0': 'O', O: '0', '1': 'I', I: '1', '2': 'Z', Z: '2', '5': 'S', S: '5', '8': 'B', B: '8', '6': 'G', G: '6' };

/** One character changed by the check digits: line and column (0-based), as read and as corrected. */
export interface MrzCorrection {
  line: number;
  column: number;
  read: string;
  as: string;
}

/** The most characters one correction may change: more would let the check digits be satisfied by chance. */
const MAX_CORRECTED = 3;

/**
 * The alphanumeric fields a check digit covers, as [line, from, to): the document number (TD1: with its
 * continuation in the optional data), the TD3 personal number, the TD2 optional data and the TD1 optional data
 * (covered by the composite digit). There a letter and a digit are both allowed and the layout repair cannot
 * tell which was printed. Dates, check digits and numeric fields are digits only and names letters only: the
 * layout repair settles those by class.
 */
function coveredFields(format: MrzFormat): Array<[number, number, number]> {
  if (format === 'TD1')
    return [
      [0, 5, 14],
      [0, 15, 30],
      [1, 18, 29],
    ];
  return [[1, 0, 9], ...(format === 'TD3' ? [[1, 28, 42] as [number, number, number]] : format === 'TD2' ? [[1, 28, 35] as [number, number, number]] : [])];
}

/**
 * When the zone fails a check digit: the smallest set of letter/digit swaps (0/O, 1/I, 2/Z, 5/S, 8/B, 6/G) in the
 * alphanumeric fields the check digits cover after which every check digit verifies and every field is well
 * formed. Positions a document's own layout makes numeric (an INE's IDMEX line, a Mexican passport number) are
 * left to the layout repair. The check digits decide: a correction is taken only when it makes the whole zone
 * valid, and only when another reading of the zone shows it: the corrected field must be found verbatim in a
 * `witnesses` text (other OCR readings of the zone, whitespace removed), and be the only such correction of its
 * size. Check digits alone are too weak (mod 10): a D read as 0, no confusion of this list, was "compensated" by an
 * 8 turned B in the same field (both shift the sums by 1), giving a valid but wrong zone; and Z→2 at one place and
 * B→8 three places on shift a TD3's sums alike. G and 6 differ by 10 and never change a check digit: never corrected.
 */
export function correctByCheckDigits(format: MrzFormat, lines: readonly string[], witnesses: readonly string[] = []): { lines: string[]; corrections: MrzCorrection[] } | null {
  // The INE prints H for hombre: its zones are parsed as checkMrz parses them.
  const options = isIneMrz(lines) ? { extraSexLetters: 'H' } : {};
  const parsed = parseMrzLines(lines, options);
  if (!parsed || parsed.valid) return null;
  const templates = lineTemplates(format, lines);
  const fields = coveredFields(format);
  const positions = fields
    .flatMap(([line, from, to]) => Array.from({ length: to - from }, (_, i): [number, number] => [line, from + i]))
    .filter(([l, c]) => templates[l]?.[c] === 'X' && CONFUSABLE[lines[l]![c]!] !== undefined);
  const apply = (chosen: Array<[number, number]>): string[] => {
    const out = lines.map((line) => [...line]);
    for (const [l, c] of chosen) out[l]![c] = CONFUSABLE[out[l]![c]!]!;
    return out.map((chars) => chars.join(''));
  };
  const texts = witnesses.map((w) => w.replace(/\s+/g, ''));
  // Every field a correction changed, as corrected, is somewhere in another reading.
  const witnessed = (chosen: Array<[number, number]>, corrected: string[]): boolean =>
    chosen.every(([l, c]) => {
      const field = fields.find(([fl, from, to]) => fl === l && c >= from && c < to)!;
      const value = corrected[l]!.slice(field[1], field[2]).replace(/<+$/, '');
      return texts.some((t) => t.includes(value));
    });
  for (let size = 1; size <= Math.min(MAX_CORRECTED, positions.length); size++) {
    const found: Array<{ chosen: Array<[number, number]>; lines: string[] }> = [];
    const pick = (start: number, chosen: Array<[number, number]>): void => {
      if (chosen.length === size) {
        const corrected = apply(chosen);
        if (parseMrzLines(corrected, options)?.valid) found.push({ chosen: [...chosen], lines: corrected });
        return;
      }
      for (let i = start; i < positions.length; i++) pick(i + 1, [...chosen, positions[i]!]);
    };
    pick(0, []);
    if (found.length === 0) continue;
    const taken = found.filter((f) => witnessed(f.chosen, f.lines));
    if (taken.length !== 1) return null;
    const { chosen, lines: corrected } = taken[0]!;
    return { lines: corrected, corrections: chosen.map(([line, column]) => ({ line, column, read: lines[line]![column]!, as: corrected[line]![column]! })) };
  }
  return null;
}

// --------------------------------------------------------------------------------------------------
// Validation and fields
// --------------------------------------------------------------------------------------------------

export interface MrzCheck {
  /** Every field well formed and every check digit verified. */
  valid: boolean;
  checkDigits: Record<string, boolean>;
  fields: Record<string, MrzFieldValue>;
}

/** Whether the line is an INE (IDMEX) TD1 line 1. */
export const isIneMrz = (lines: readonly string[]): boolean => (lines[0] ?? '').startsWith('IDMEX');

/**
 * Parse and check digits by ICAO 9303 (mrz-formats.ts). The INE prints the sex as H (hombre) on many cards,
 * which ICAO does not allow: it is accepted on IDMEX zones. `lineConfidences` (0-100) grade the fields no
 * check digit covers.
 */
export function checkMrz(lines: readonly string[], lineConfidences?: readonly number[]): MrzCheck {
  const parsed = parseMrzLines(lines, {
    ...(isIneMrz(lines) ? { extraSexLetters: 'H' } : {}),
    ...(lineConfidences ? { lineConfidences } : {}),
  });
  if (!parsed) return { valid: false, checkDigits: {}, fields: {} };
  return { valid: parsed.valid, checkDigits: { ...parsed.checkDigits }, fields: parsed.fields };
}

export function countValidCheckDigits(check: MrzCheck): number {
  return Object.values(check.checkDigits).filter(Boolean).length;
}

/** 'DIAZ<YANEZ<<HECTOR<<<' → 'HECTOR DIAZ YANEZ' (given names first, as nombreCompleto). */
export function mrzNameGivenFirst(nameField: string): string {
  const [surnames = '', given = ''] = nameField.replace(/<+$/, '').split('<<');
  const words = (s: string) => s.split('<').filter(Boolean).join(' ');
  return [words(given), words(surnames)].filter(Boolean).join(' ');
}

/**
 * The name field as the LSTM engine read it, when its words have the legacy reading's exact layout (same
 * fillers in the same places): the LSTM tells letters apart better (W/N, M/H) but reads fillers less
 * reliably, so it is trusted for letters only. Null when the layouts differ.
 */
export function mergeNameField(legacy: string, lstmText: string): string | null {
  const letters = lstmText.replace(/\s+/g, '').replace(/<+$/, '');
  if (!/^[A-Z<]+$/.test(letters) || letters.length > legacy.length) return null;
  const lstm = letters.padEnd(legacy.length, '<');
  for (let i = 0; i < legacy.length; i++) if ((legacy[i] === '<') !== (lstm[i] === '<')) return null;
  return lstm;
}

export function mrzNameParts(nameField: string): { surnames: string[]; given: string } {
  const [surnames = '', given = ''] = nameField.replace(/<+$/, '').split('<<');
  return { surnames: surnames.split('<').filter(Boolean), given: given.split('<').filter(Boolean).join(' ') };
}

/** YYMMDD → DD/MM/YYYY; birth dates take the century that keeps them in the past, expiries the 2000s. */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', today: Date = new Date()): string | null {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(yymmdd);
  if (!match) return null;
  const yy = Number(match[1]);
  const currentYy = today.getFullYear() % 100;
  const year = kind === 'expiry' ? 2000 + yy : yy > currentYy ? 1900 + yy : 2000 + yy;
  return `${match[3]}/${match[2]}/${year}`;
}
