/**
 * Pure MRZ handling: assembling OCR glyphs into fixed-length lines (TD1 3x30, TD3 2x44), position-aware
 * letter/digit repair by the ICAO 9303 field layout (plus the INE, Peru DNI and Mexican passport number
 * layouts), and validation through the `mrz` package.
 */
import { parse, states } from 'mrz';
import { DIGIT_FOR_LETTER, LETTER_FOR_DIGIT } from './shapes.js';

export type MrzFormat = 'TD1' | 'TD3';

export const MRZ_SHAPE: Record<MrzFormat, { lines: number; length: number; documentWidthMm: number }> = {
  TD1: { lines: 3, length: 30, documentWidthMm: 85.6 },
  TD3: { lines: 2, length: 44, documentWidthMm: 125 },
};
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
  const prior = (MRZ_PITCH_MM / MRZ_SHAPE[format].documentWidthMm) * cardWidth;
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
}

export function assembleMrz(ocrLines: MrzTextLine[], cardWidth: number): AssembledMrz | null {
  const candidates = ocrLines
    .map((l) => ({ ...l, text: l.text.replace(/\s+/g, '') }))
    .filter((l) => l.text.length >= 18)
    .sort((a, b) => a.y - b.y);
  if (candidates.length === 0) return null;
  const format: MrzFormat = candidates.some((l) => l.text.length >= 38) ? 'TD3' : 'TD1';
  const { lines: count, length } = MRZ_SHAPE[format];
  if (candidates.length < count) return null;
  const chosen = candidates.slice(-count);
  const glyphLines = chosen.map((l) => l.glyphs.filter((g) => g.char.trim() !== '').sort((a, b) => a.x - b.x));
  const haveGlyphs = glyphLines.every((g, i) =>
    g.length > 0 && g.map((x) => x.char).join('').length === chosen[i]!.text.length);
  const gridded = haveGlyphs ? placeOnGrid(glyphLines, length, cardWidth, format) : null;
  const templates = lineTemplates(format, chosen.map((l) => l.text));
  const lines = gridded ?? chosen.map((l, i) => fitByText(l.text, length, templates[i] ?? ''));
  return { format, lines, rows: chosen.map((l) => ({ top: l.top, bottom: l.bottom })) };
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
  H: 'MN', N: 'MH', M: 'NH', W: 'MN', O: 'DQ', D: 'O', Q: 'O', E: 'F', F: 'EP', P: 'FR', R: 'PB', B: 'RE', C: 'GO',
  G: 'C', U: 'V', V: 'UY', I: 'LT', L: 'I',
};

function fitsClass(char: string, cls: string): boolean {
  switch (cls) {
    case 'A': return /[A-Z<]/.test(char);
    case 'N': return /[0-9]/.test(char);
    case 'C': return /[0-9<]/.test(char);
    case 'S': return /[MFH<]/.test(char);
    case 'F': return char === '<';
    default: return true;
  }
}

const repeat = (cls: CharClass, n: number): string => cls.repeat(n);

/** Generic ICAO layout, refined for the INE (IDMEX), the Peru DNI (I<PER) and Mexican passports. */
export function lineTemplates(format: MrzFormat, lines: readonly string[]): string[] {
  const first = lines[0] ?? '';
  const issuer = repairStateCode([...first.slice(2, 5)].map((c) => TO_LETTER[c] ?? c).join(''), null);
  if (format === 'TD3') {
    const number = issuer === 'MEX' ? `A${repeat('N', 8)}` : repeat('X', 9);
    return [
      `AAAAA${repeat('A', 39)}`,
      `${number}CAAA${repeat('N', 6)}CS${repeat('N', 6)}C${repeat('X', 14)}CC`,
    ];
  }
  let line1 = `AAAAA${repeat('X', 9)}C${repeat('X', 15)}`;
  if (issuer === 'MEX' && /^[I1][D0O]/.test(first)) line1 = `AAAAA${repeat('N', 9)}CFF${repeat('N', 13)}`;
  else if (issuer === 'PER') line1 = `AAAAA${repeat('N', 8)}XC${repeat('X', 15)}`;
  return [line1, `${repeat('N', 6)}CS${repeat('N', 6)}CAAA${repeat('X', 11)}C`, repeat('A', 30)];
}

function repairChar(char: string, cls: string): string {
  switch (cls) {
    case 'A': return TO_LETTER[char] ?? char;
    case 'N': return TO_DIGIT[char] ?? char;
    case 'C': return char === '<' ? char : (TO_DIGIT[char] ?? char);
    case 'S': return char === 'N' ? 'M' : char;
    case 'F': return '<';
    default: return char;
  }
}

/** A country code the `mrz` package knows, reached by at most one confusable-letter swap. */
function repairStateCode(code: string, expected: string | null): string {
  const known = (c: string) => Object.prototype.hasOwnProperty.call(states, c);
  if (known(code) && (!expected || code === expected)) return code;
  const variants = new Set<string>();
  for (let i = 0; i < code.length; i++) {
    for (const alt of LETTER_CONFUSIONS[code[i]!] ?? '') variants.add(code.slice(0, i) + alt + code.slice(i + 1));
  }
  if (expected && variants.has(expected)) return expected;
  if (known(code)) return code;
  const valid = [...variants].filter(known);
  return valid.length === 1 ? valid[0]! : code;
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

export function repairMrz(format: MrzFormat, input: readonly string[]): string[] {
  const templates = lineTemplates(format, input);
  const lines = input.map((line, i) => [...line].map((c, j) => repairChar(c, templates[i]?.[j] ?? 'X')).join(''));
  const set = (i: number, start: number, end: number, value: string) => {
    const line = lines[i]!;
    lines[i] = line.slice(0, start) + value + line.slice(end);
  };
  if (format === 'TD3') {
    const l0 = lines[0]!;
    const issuer = repairStateCode(l0.slice(2, 5), null);
    set(0, 2, 5, issuer);
    set(0, 5, 44, clearNameTail(lines[0]!.slice(5)));
    const l1 = lines[1]!;
    set(1, 10, 13, repairStateCode(l1.slice(10, 13), issuer === 'MEX' ? 'MEX' : null));
    if (l1[20] === 'H') set(1, 20, 21, 'M');
    set(1, 28, 42, clearFillerNoise(lines[1]!.slice(28, 42)));
    return lines;
  }
  const issuer = repairStateCode(lines[0]!.slice(2, 5), null);
  set(0, 2, 5, issuer);
  set(0, 15, 30, clearFillerNoise(lines[0]!.slice(15, 30)));
  set(1, 15, 18, repairStateCode(lines[1]!.slice(15, 18), issuer === 'MEX' || issuer === 'PER' ? issuer : null));
  set(1, 18, 29, clearFillerNoise(lines[1]!.slice(18, 29)));
  set(2, 0, 30, clearNameTail(lines[2]!));
  return lines;
}

// --------------------------------------------------------------------------------------------------
// Validation and fields
// --------------------------------------------------------------------------------------------------

export interface MrzCheck {
  /** Every field parsed and every check digit verified. */
  valid: boolean;
  checkDigits: Record<string, boolean>;
  fields: Record<string, string | null>;
}

const CHECK_DIGIT_NAMES: Record<string, string> = {
  documentNumberCheckDigit: 'documentNumber',
  birthDateCheckDigit: 'birthDate',
  expirationDateCheckDigit: 'expirationDate',
  personalNumberCheckDigit: 'personalNumber',
  compositeCheckDigit: 'composite',
};

/** Whether the line is an INE (IDMEX) TD1 line 1. */
export const isIneMrz = (lines: readonly string[]): boolean => (lines[0] ?? '').startsWith('IDMEX');

/**
 * Validate with the `mrz` package. The INE prints the sex as H (hombre) on many cards, which ICAO does
 * not allow: H is read as M (male) for validation only; the lines themselves are reported as printed.
 */
export function checkMrz(lines: readonly string[]): MrzCheck {
  const input = [...lines];
  if (isIneMrz(input) && input[1]?.[7] === 'H') input[1] = `${input[1].slice(0, 7)}M${input[1].slice(8)}`;
  try {
    const result = parse(input);
    const checkDigits: Record<string, boolean> = {};
    for (const detail of result.details) {
      const name = detail.field ? CHECK_DIGIT_NAMES[detail.field] : undefined;
      if (name) checkDigits[name] = detail.valid;
    }
    const fields: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(result.fields)) fields[key] = value ?? null;
    return { valid: result.valid, checkDigits, fields };
  } catch {
    return { valid: false, checkDigits: {}, fields: {} };
  }
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
