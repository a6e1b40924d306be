/**
 * Position-aware repair of the CURP and the clave de elector as read by OCR. Letters and digits are
 * told apart by their place in the code (0↔O, 1↔I, 5↔S, 8↔B, 2↔Z, 6↔G). A character is changed to
 * another of its own class only when a second, independent reading of the same fact (the printed birth
 * date, sex or names) says so AND the check digit then holds; a failed check digit alone never changes
 * anything: it is reported.
 */
import { curpCheckDigit, curpGivenName, curpNameParts, curpNameWords, curpStateCodes, enyeToX, firstInner, isCurpCheckDigitValid, isCurpFormat, type DateParts } from '@kyc/contracts/rules';
import { DIGIT_FOR_LETTER, LETTER_FOR_DIGIT } from './shapes.js';

const TO_DIGIT = DIGIT_FOR_LETTER;
const TO_LETTER = LETTER_FOR_DIGIT;
/** Shapes OCR swaps within a class, used only to accept a correction confirmed by another reading. */
const CONFUSABLE: Record<string, string> = {
  '0': '689DOQ',
  '1': '7IL',
  '2': 'Z7',
  '3': '8985',
  '5': '6S38',
  '6': '5809G',
  '7': '1T2',
  '8': '3605B9',
  '9': '8063',
  A: 'R4',
  B: '8RE',
  C: 'GO',
  D: 'O0',
  E: 'FB',
  F: 'EP',
  G: 'C6S',
  H: 'MN',
  I: 'L1TJ',
  J: 'TI1',
  K: 'X',
  L: 'I1',
  M: 'NH',
  N: 'MH',
  O: 'DQ0CU',
  P: 'FR',
  Q: 'O',
  R: 'PBA',
  S: 'G5',
  T: 'I7J',
  U: 'V',
  V: 'UY',
  X: 'K',
  Y: 'V',
  Z: '2',
};
const confusable = (a: string, b: string): boolean => (CONFUSABLE[a] ?? '').includes(b) || (CONFUSABLE[b] ?? '').includes(a);

export interface CodeRepair {
  value: string;
  warnings: string[];
}

/** Uppercase alphanumerics only; Ñ is read where N is printed in these codes. */
export function cleanCode(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/Ñ/g, 'N')
    .replace(/[^A-Z0-9]/g, '');
}

type CodeClass = 'L' | 'D' | 'S' | '*';

/** 1 when the character has its position's class, 0.5 when it is shaped like one that has, else 0. */
function classFit(c: string, cls: string | undefined): number {
  if (cls === '*') return 1;
  if (cls === 'D') return /\d/.test(c) ? 1 : TO_DIGIT[c] ? 0.5 : 0;
  return /[A-Z]/.test(c) ? 1 : TO_LETTER[c] ? 0.5 : 0;
}

/**
 * The reading brought to the template's length. OCR adds and drops characters (an extra 'G' after a '6',
 * a speck read as a letter): every window and every one- or two-character deletion is scored by how many
 * characters fit their position's class, and `tieBreak` settles equal scores.
 */
function fitLength(code: string, template: string, tieBreak: (candidate: string) => number = () => 0): string {
  const n = template.length;
  if (code.length <= n) return code;
  const candidates = new Set<string>();
  for (let offset = 0; offset + n <= code.length; offset++) candidates.add(code.slice(offset, offset + n));
  const deleteOne = (text: string) => [...text].map((_, i) => text.slice(0, i) + text.slice(i + 1));
  if (code.length - n === 1) deleteOne(code).forEach((c) => candidates.add(c));
  if (code.length - n === 2)
    deleteOne(code)
      .flatMap(deleteOne)
      .forEach((c) => candidates.add(c));
  let best = code.slice(0, n);
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    let score = 0;
    for (let i = 0; i < n; i++) score += classFit(candidate[i]!, template[i]);
    score += tieBreak(candidate) * 0.5;
    if (score > bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

function byClass(code: string, template: string): string {
  return [...code]
    .map((c, i) => {
      const cls = template[i];
      if (cls === 'D') return TO_DIGIT[c] ?? c;
      if (cls === 'L' || cls === 'S') return TO_LETTER[c] ?? c;
      return c;
    })
    .join('');
}

const yymmdd = (d: DateParts): string => `${String(d.year % 100).padStart(2, '0')}${String(d.month).padStart(2, '0')}${String(d.day).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------------
// CURP
// ---------------------------------------------------------------------------------------------------

const CURP_TEMPLATE = 'LLLLDDDDDDSLLLLL*D';

export interface CurpContext {
  birthDate?: DateParts | null;
  sex?: 'H' | 'M' | null;
  /** The letters the names give (positions 1-4 and 14-16), see curpNameLetters. */
  nameLetters?: { initials: string; consonants: string } | null;
  /** The birth state's CURP code read elsewhere (the INE clave de elector carries its number). */
  birthState?: string | null;
  /** The clave de elector read on the same card: it spells the surnames' letters too (see claveAgreement). */
  clave?: string | null;
}

const VOWELS = 'AEIOU';

/** Whether the character may stand at this CURP position at all. */
function allowedAt(c: string, position: number): boolean {
  if (position === 1) return VOWELS.includes(c) || c === 'X';
  if (position >= 13 && position <= 15) return /[A-Z]/.test(c) && !VOWELS.includes(c);
  return classFit(c, CURP_TEMPLATE[position]) === 1;
}

/**
 * Replace `code[from..]` by `expected` where each differing character is a plausible misread of the
 * expected one, cannot stand at its position, or was itself only inferred from its shape (`uncertain`);
 * null when nothing would change or a difference is none of these.
 */
function confirmBy(code: string, from: number, expected: string, uncertain: ReadonlySet<number>): string | null {
  let out = code;
  for (let i = 0; i < expected.length; i++) {
    const at = from + i;
    const read = code[at];
    const want = expected[i]!;
    if (read === want) continue;
    if (read === undefined || !(confusable(read, want) || !allowedAt(read, at) || uncertain.has(at))) return null;
    out = out.slice(0, at) + want + out.slice(at + 1);
  }
  return out === code ? null : out;
}

const isSound = (curp: string): boolean => isCurpFormat(curp) && isCurpCheckDigitValid(curp);

/** What other readings say CURP positions hold: [first position, characters]. */
function expectations(context: CurpContext): Array<[number, string]> {
  const known: Array<[number, string]> = [];
  if (context.nameLetters) known.push([0, context.nameLetters.initials]);
  if (context.birthDate) known.push([4, yymmdd(context.birthDate)]);
  if (context.sex) known.push([10, context.sex]);
  if (context.birthState) known.push([11, context.birthState]);
  if (context.nameLetters) known.push([13, context.nameLetters.consonants]);
  return known;
}

function templateFor(context: CurpContext, read = ''): string {
  // The 17th character is a digit for births before 2000, a letter from 2000 on.
  const year = context.birthDate?.year ?? centuryOfBirth(read);
  return year === undefined ? CURP_TEMPLATE : `${CURP_TEMPLATE.slice(0, 16)}${year >= 2000 ? 'L' : 'D'}D`;
}

/**
 * The birth year a CURP's own digits settle without the printed date: a two-digit year after this year's can only be
 * of the 1900s (a CURP is never issued for a birth to come). Undefined when it could be either.
 */
function centuryOfBirth(read: string, today = new Date()): number | undefined {
  const yy = byClass(read.slice(4, 6), 'DD');
  if (!/^\d{2}$/.test(yy)) return undefined;
  return Number(yy) > today.getUTCFullYear() % 100 ? 1900 + Number(yy) : undefined;
}

/** An 18-character reading: letters and digits by position, then corrections confirmed by other readings. */
function repair18(read: string, context: CurpContext): { code: string; corrected: boolean } {
  const template = templateFor(context, read);
  let code = byClass(read, template);
  const uncertain = new Set([...read].flatMap((c, i) => (c === code[i] ? [] : [i])));
  if (!/[HMX]/.test(code[10]!) && context.sex) code = `${code.slice(0, 10)}${context.sex}${code.slice(11)}`;
  code = repairState(code);
  // A misread can keep the check digit (A→R at position 14 changes the sum by 90, H→M at position 3 by
  // 80): a sound code that disagrees with the other readings is still checked against them, and changed
  // only when the agreeing variant is sound too.
  const corrections = expectations(context).filter(([from]) => from !== 10);
  const agrees = corrections.every(([from, chars]) => code.slice(from, from + chars.length) === chars);
  if (isSound(code) && agrees) return { code, corrected: false };
  const fixed = confirmedVariant(code, corrections, uncertain);
  return fixed && fixed !== code ? { code: fixed, corrected: true } : { code, corrected: false };
}

/** Position → character, from [first position, characters] expectations. */
function expectedAt(expected: Array<[number, string]>): Map<number, string> {
  return new Map(expected.flatMap(([from, chars]) => [...chars].map((c, i): [number, string] => [from + i, c])));
}

/**
 * A reading that lost one or two characters, completed with characters another reading says stand at
 * those places; the first completion `accept` returns a value for wins (null: none).
 */
function restoreLost(read: string, length: number, known: ReadonlyMap<number, string>, accept: (candidate: string) => string | null): string | null {
  const missing = length - read.length;
  if (missing < 1 || missing > 2) return null;
  const places = [...known.keys()].filter((p) => p < length).sort((a, b) => a - b);
  const insert = (text: string, at: number) => text.slice(0, at) + known.get(at)! + text.slice(at);
  for (const first of places) {
    if (missing === 1) {
      const accepted = accept(insert(read, first));
      if (accepted) return accepted;
      continue;
    }
    for (const second of places) {
      if (second <= first) continue;
      const accepted = accept(insert(insert(read, first), second));
      if (accepted) return accepted;
    }
  }
  return null;
}

export function repairCurp(raw: string, context: CurpContext = {}): CodeRepair {
  const template = templateFor(context);
  const score = (candidate: string): number => (isCurpFormat(byClass(candidate, template)) ? 1 : 0) + (isCurpCheckDigitValid(byClass(candidate, template)) ? 1 : 0);
  const cleaned = cleanCode(raw);
  let result: { code: string; corrected: boolean } | null = null;
  if (cleaned.length >= 18) {
    result = repair18(fitLength(cleaned, template, score), context);
  } else if (cleaned.length >= 16) {
    const known = expectedAt(expectations(context));
    const restored = restoreLost(cleaned, 18, known, (candidate) => {
      const attempt = repair18(candidate, context);
      return isSound(attempt.code) ? attempt.code : null;
    });
    if (restored) result = { code: restored, corrected: true };
  }
  if (!result) return { value: cleaned, warnings: cleaned ? ['curp_incomplete'] : [] };
  const { code } = result;
  const warnings: string[] = [];
  if (result.corrected) warnings.push('curp_corrected_by_cross_check');
  if (!isCurpFormat(code)) warnings.push('curp_format_invalid');
  if (!isCurpCheckDigitValid(code)) warnings.push('curp_check_digit_failed');
  if (context.birthDate && code.slice(4, 10) !== yymmdd(context.birthDate)) warnings.push('curp_birth_date_mismatch');
  if (context.sex && /[HM]/.test(code[10]!) && code[10] !== context.sex) warnings.push('curp_sex_mismatch');
  return { value: code, warnings };
}

/**
 * The first reading whose repaired CURP has a valid format and check digit; else the most complete one
 * (18 characters, then a valid format, then the fewest warnings, then the earliest).
 */
export function repairCurpFrom(readings: string[], context: CurpContext = {}): CodeRepair {
  const repairs = readings.map((text) => repairCurp(text, context));
  // An incomplete reading (too short to check) is not sound either.
  const sound = repairs.filter((r) => !r.warnings.includes('curp_check_digit_failed') && !r.warnings.includes('curp_format_invalid') && !r.warnings.includes('curp_incomplete'));
  // A misread keeps the check digit one time in ten: of two sound readings, the one the clave de elector agrees with.
  const clave = context.clave;
  if (sound.length > 1 && clave) return sound.reduce((best, r) => (claveAgreement(r.value, clave) > claveAgreement(best.value, clave) ? r : best));
  if (sound[0]) return sound[0];
  const rank = (r: CodeRepair) => (r.value.length === 18 ? 100 : 0) + (r.warnings.includes('curp_format_invalid') ? 0 : 10) - r.warnings.length;
  return repairs.reduce<CodeRepair | undefined>((best, r) => (!best || rank(r) > rank(best) ? r : best), undefined) ?? { value: '', warnings: [] };
}

/**
 * The variant with the fewest corrections applied (each confirmed by another reading) whose format and
 * check digit hold; null when none does.
 */
function confirmedVariant(code: string, corrections: Array<[number, string]>, uncertain: ReadonlySet<number>): string | null {
  const subsets = [...Array(1 << corrections.length).keys()].slice(1).sort((a, b) => bitCount(a) - bitCount(b));
  for (const subset of subsets) {
    let variant: string | null = code;
    corrections.forEach(([from, expected], i) => {
      if (variant === null || !(subset & (1 << i))) return;
      const applied = confirmBy(variant, from, expected, uncertain);
      variant = applied;
    });
    if (variant !== null && isSound(variant)) return variant;
  }
  return null;
}

const bitCount = (n: number): number => n.toString(2).replace(/0/g, '').length;

function repairState(code: string): string {
  const state = code.slice(11, 13);
  const known = (s: string) => (curpStateCodes as readonly string[]).includes(s);
  if (known(state)) return code;
  const options = new Set<string>();
  for (let i = 0; i < 2; i++) {
    for (const alt of CONFUSABLE[state[i]!] ?? '') {
      const candidate = state.slice(0, i) + alt + state.slice(i + 1);
      if (known(candidate)) options.add(candidate);
    }
  }
  return options.size === 1 ? code.slice(0, 11) + [...options][0]! + code.slice(13) : code;
}

/** INE entity numbers (01 Aguascalientes ... 32 Zacatecas) as CURP state codes: RENAPO's codes in the same order. */
const INE_STATE_CURP: readonly string[] = curpStateCodes.slice(0, 32);

/**
 * How many surnames' letters a clave de elector confirms in a CURP, less those it contradicts. A surname whose
 * initial is a consonant starts both codes' pair with it; its first inner consonant follows in the clave and stands
 * 14th (15th for the second surname) in the CURP. Vowel initials are not compared: whether the clave then starts
 * with the vowel or with the first two consonants is not settled here. The given name is not compared either (the
 * CURP skips MARÍA and JOSÉ).
 */
export function claveAgreement(curp: string, clave: string): number {
  let score = 0;
  for (const [initialAt, innerAt, claveAt] of [
    [0, 13, 0],
    [2, 14, 2],
  ] as const) {
    const initial = curp[initialAt];
    if (!initial || !/[A-Z]/.test(initial) || VOWELS.includes(initial) || clave.length < claveAt + 2) continue;
    score += initial === clave[claveAt] && curp[innerAt] === clave[claveAt + 1] ? 1 : -1;
  }
  return score;
}

/** The birth state in a clave de elector (characters 13-14, 01-32) as a CURP state code. */
export function claveBirthState(clave: string): string | null {
  const number = /^[A-Z]{6}\d{6}(\d{2})/.exec(clave)?.[1];
  return number ? (INE_STATE_CURP[Number(number) - 1] ?? null) : null;
}

/** The check digit the first 17 characters call for (for messages and tests). */
export function expectedCurpCheckDigit(curp: string): number | null {
  return curpCheckDigit(curp.slice(0, 17));
}

// ---------------------------------------------------------------------------------------------------
// Letters the names give (RENAPO rules, as far as a cross-check needs them)
// ---------------------------------------------------------------------------------------------------

/** CURP positions 1-4 and 14-16 from the holder's names; null without a first surname and a given name. */
export function curpNameLetters(names: { apellidoPaterno: string; apellidoMaterno: string; nombres: string }): { initials: string; consonants: string } | null {
  if (!curpNameWords(names.apellidoPaterno)[0] || !curpGivenName(names.nombres)) return null;
  return curpNameParts(names);
}

// ---------------------------------------------------------------------------------------------------
// Clave de elector: 6 letters, YYMMDD, 2-digit state, H/M, 3 digits
// ---------------------------------------------------------------------------------------------------

const CLAVE_TEMPLATE = 'LLLLLLDDDDDDDDSDDD';
const CLAVE_FORMAT = /^[A-Z]{6}\d{8}[HM]\d{3}$/;

export interface ClaveContext {
  birthDate?: DateParts | null;
  sex?: 'H' | 'M' | null;
  /** The six letters the names give, see claveNameLetters. */
  nameLetters?: string | null;
}

/** Clave de elector letters: initial and first inner consonant of each surname and of the first given name. */
export function claveNameLetters(names: { apellidoPaterno: string; apellidoMaterno: string; nombres: string }): string | null {
  const pair = (name: string): string | null => {
    const word = curpNameWords(name)[0];
    return word ? enyeToX(word[0]!) + firstInner(word, false) : null;
  };
  const paterno = pair(names.apellidoPaterno);
  const given = pair(names.nombres);
  if (!paterno || !given) return null;
  return paterno + (pair(names.apellidoMaterno) ?? 'XX') + given;
}

/**
 * Like the CURP, by position; the clave has no check digit, so a character is changed only when the
 * names or the birth date read elsewhere say what it is AND the read character is a misread of it, cannot
 * stand there, or was inferred from its shape; a lost character is put back the same way.
 */
export function repairClaveElector(raw: string, context: ClaveContext = {}): CodeRepair {
  const known: Array<[number, string]> = [];
  if (context.nameLetters) known.push([0, context.nameLetters]);
  if (context.birthDate) known.push([6, yymmdd(context.birthDate)]);
  if (context.sex) known.push([14, context.sex]);
  const agrees = (code: string) => CLAVE_FORMAT.test(code) && known.every(([from, chars]) => code.slice(from, from + chars.length) === chars);
  const cleaned = cleanCode(raw);
  let code: string | null = null;
  let corrected = false;
  if (cleaned.length >= 18) {
    code = fitLength(cleaned, CLAVE_TEMPLATE, (c) => (agrees(byClass(c, CLAVE_TEMPLATE)) ? 1 : 0));
    const read = code;
    code = byClass(read, CLAVE_TEMPLATE);
    if (!/[HM]/.test(code[14]!) && context.sex) code = `${code.slice(0, 14)}${context.sex}${code.slice(15)}`;
    if (!agrees(code)) {
      const uncertain = new Set([...read].flatMap((c, i) => (c === code![i] ? [] : [i])));
      let variant: string | null = code;
      for (const [from, chars] of known) {
        variant = variant && (confirmClave(variant, from, chars, uncertain) ?? variant);
      }
      if (variant && variant !== code && agrees(variant)) {
        code = variant;
        corrected = true;
      }
    }
  } else if (cleaned.length >= 16) {
    code = restoreLost(cleaned, 18, expectedAt(known), (candidate) => {
      const fixed = byClass(candidate, CLAVE_TEMPLATE);
      return agrees(fixed) ? fixed : null;
    });
    corrected = code !== null;
  }
  if (!code) return { value: cleaned, warnings: cleaned ? ['clave_elector_incomplete'] : [] };
  const warnings: string[] = corrected ? ['clave_elector_corrected_by_cross_check'] : [];
  if (context.birthDate && code.slice(6, 12) !== yymmdd(context.birthDate)) {
    warnings.push('clave_elector_birth_date_mismatch');
  }
  if (!CLAVE_FORMAT.test(code)) warnings.push('clave_elector_format_invalid');
  return { value: code, warnings };
}

/** The first reading whose repaired clave raises no warning, else the first non-empty reading's. */
export function repairClaveFrom(readings: string[], context: ClaveContext = {}): CodeRepair {
  const repairs = readings.filter((t) => t.trim()).map((text) => repairClaveElector(text, context));
  return repairs.find((r) => r.warnings.length === 0) ?? repairs[0] ?? { value: '', warnings: [] };
}

function confirmClave(code: string, from: number, expected: string, uncertain: ReadonlySet<number>): string | null {
  let out = code;
  for (let i = 0; i < expected.length; i++) {
    const at = from + i;
    const read = code[at]!;
    const want = expected[i]!;
    if (read === want) continue;
    if (!(confusable(read, want) || classFit(read, CLAVE_TEMPLATE[at]) < 1 || uncertain.has(at))) return null;
    out = out.slice(0, at) + want + out.slice(at + 1);
  }
  return out;
}

const STATE_NAMES: Record<string, string> = {
  AGUASCALIENTES: 'AS',
  'BAJA CALIFORNIA': 'BC',
  'BAJA CALIFORNIA SUR': 'BS',
  CAMPECHE: 'CC',
  COAHUILA: 'CL',
  COLIMA: 'CM',
  CHIAPAS: 'CS',
  CHIHUAHUA: 'CH',
  'CIUDAD DE MEXICO': 'DF',
  'DISTRITO FEDERAL': 'DF',
  DURANGO: 'DG',
  GUANAJUATO: 'GT',
  GUERRERO: 'GR',
  HIDALGO: 'HG',
  JALISCO: 'JC',
  MEXICO: 'MC',
  'ESTADO DE MEXICO': 'MC',
  MICHOACAN: 'MN',
  MORELOS: 'MS',
  NAYARIT: 'NT',
  'NUEVO LEON': 'NL',
  OAXACA: 'OC',
  PUEBLA: 'PL',
  QUERETARO: 'QT',
  'QUINTANA ROO': 'QR',
  'SAN LUIS POTOSI': 'SP',
  SINALOA: 'SL',
  SONORA: 'SR',
  TABASCO: 'TC',
  TAMAULIPAS: 'TS',
  TLAXCALA: 'TL',
  VERACRUZ: 'VZ',
  YUCATAN: 'YN',
  ZACATECAS: 'ZS',
};

/** A Mexican state printed by name (the passport's place of birth) as a CURP state code. */
export function stateCodeFromName(name: string): string | null {
  const plain = name
    .toUpperCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return STATE_NAMES[plain] ?? null;
}
