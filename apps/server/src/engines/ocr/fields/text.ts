/** Turning OCR text of one printed field into a wire value. */
import { formatDate, isCalendarDate, type DateParts } from '@kyc/contracts/rules';
import type { RawLine, RawRead } from '../pool.js';
import { DIGIT_FOR_LETTER } from '../shapes.js';

const DIGIT_SHAPES: Readonly<Record<string, string>> = {
  ...DIGIT_FOR_LETTER,
  o: '0',
  l: '1',
  '|': '1',
  z: '2',
  s: '5',
  b: '6',
  g: '9',
  q: '9',
};

/** Letters shaped like digits read as those digits (for fields printed in digits only). */
export function asDigits(text: string): string {
  return [...text].map((c) => DIGIT_SHAPES[c] ?? c).join('');
}

/**
 * Words of a line of printed names or places: faint specks of hologram and guilloche read as short
 * low-confidence words are dropped.
 */
export function lineWords(line: RawLine): string[] {
  return line.words.filter((w) => w.confidence >= 45 || w.text.replace(/[^\p{L}]/gu, '').length >= 4).map((w) => w.text);
}

/** All the text of a read (codes, dates, numbers), lines joined by spaces. */
export function readText(read: RawRead | undefined): string {
  return (read?.lines ?? [])
    .map((l) => l.words.map((w) => w.text).join(' '))
    .join(' ')
    .trim();
}

/** The names or places of a read, noise words dropped. */
export function readWords(read: RawRead | undefined): string {
  return (read?.lines ?? [])
    .map((l) => lineWords(l).join(' '))
    .join(' ')
    .trim();
}

/**
 * A name or place as printed in capitals: letters (with accents and Ñ), spaces, and the dots and commas
 * of abbreviations; stray single characters at either end (noise next to the print) are dropped. Letters are
 * kept as read: no accent is added or removed (a card printing GOMEZ says GOMEZ), see docs/decisions.md
 * "Label-anchored ID reading".
 */
export function cleanWords(text: string, options: { keepPunctuation?: boolean; keepFirst?: RegExp } = {}): string {
  const allowed = options.keepPunctuation ? /[^A-ZÁÉÍÓÚÜÑ0-9.,' -]/g : /[^A-ZÁÉÍÓÚÜÑ' -]/g;
  let words = text.toUpperCase().replace(allowed, ' ').split(/\s+/).filter(Boolean);
  words = words.filter((w) => w.replace(/[^A-ZÁÉÍÓÚÜÑ0-9]/g, '') !== '' || options.keepPunctuation);
  while (words.length > 1 && isNoise(words[0]!) && !options.keepFirst?.test(words[0]!)) words.shift();
  while (words.length > 1 && isNoise(words[words.length - 1]!)) words.pop();
  return words.join(' ').replace(/\s+([.,])/g, '$1');
}

const isNoise = (word: string): boolean => word.replace(/[^A-ZÁÉÍÓÚÜÑ0-9]/g, '').length <= 1 && word !== 'Y';

/** A name line: words only, as read. */
export function cleanName(text: string): string {
  return cleanWords(text).replace(/[-']/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Day, month and four-digit year printed as 'DD/MM/YYYY' or 'DD MM YYYY' (letters shaped like digits fixed). */
export function findDate(text: string): DateParts | null {
  const digits = asDigits(text).replace(/[^\d/ .-]/g, ' ');
  const match = /(\d{1,2})\s*[/ .-]\s*(\d{1,2})\s*[/ .-]\s*(\d{4})/.exec(digits) ?? /(\d{2})(\d{2})(\d{4})/.exec(digits.replace(/\D/g, ''));
  if (!match) return null;
  const day = Number(match[1]);
  const month = Number(match[2]);
  const year = Number(match[3]);
  return isCalendarDate(day, month, year) ? { day, month, year } : null;
}

export function dateText(date: DateParts | null): string {
  return date ? formatDate(date) : '';
}

/** The first run of exactly `length` digits (digit-shaped letters read as digits). */
export function findDigits(text: string, length: number): string {
  const match = new RegExp(`(?<!\\d)\\d{${length}}(?!\\d)`).exec(asDigits(text).replace(/[^\d]+/g, ' '));
  return match?.[0] ?? '';
}

/** Split printed surnames into first and second, keeping particles (DE LA, DEL...) with the word they precede. */
export function splitSurnames(text: string): [string, string] {
  const words = text.split(/\s+/).filter(Boolean);
  const groups: string[] = [];
  let pending: string[] = [];
  for (const word of words) {
    pending.push(word);
    if (!PARTICLES.has(word)) {
      groups.push(pending.join(' '));
      pending = [];
    }
  }
  if (pending.length > 0) groups.push(pending.join(' '));
  if (groups.length <= 1) return [groups[0] ?? '', ''];
  return [groups[0]!, groups.slice(1).join(' ')];
}

const PARTICLES = new Set(['DE', 'DEL', 'LA', 'LAS', 'LOS', 'Y', 'SAN', 'VAN', 'VON', 'MC', 'MAC']);

export function fullName(nombres: string, apellidoPaterno: string, apellidoMaterno: string): string {
  return [nombres, apellidoPaterno, apellidoMaterno].filter(Boolean).join(' ');
}

/** The four name fields of every front reading (docs/flow.md §3 ocrData). */
export function nameFields(nombres: string, apellidoPaterno: string, apellidoMaterno: string) {
  return { nombreCompleto: fullName(nombres, apellidoPaterno, apellidoMaterno), nombres, apellidoPaterno, apellidoMaterno };
}

/** Whether rank `a` comes before rank `b`: the first place they differ decides (a vote's tie-breaks in order). */
export function rankedAbove(a: readonly number[], b: readonly number[]): boolean {
  const at = a.findIndex((value, i) => value !== b[i]);
  return at >= 0 && a[at]! > b[at]!;
}
