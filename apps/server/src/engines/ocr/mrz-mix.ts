/**
 * Mixing readings of one MRZ line character by character. Two engines that each misread a different character
 * of a soft zone (the legacy one an M as H, the LSTM one a 0 as O) never give a whole line that verifies, while
 * the characters they read between them do. Only the places a check digit covers are mixed, so every mix is
 * decided by the check digits; names, nationality and sex are never taken from a mix.
 */
import type { MrzFormat } from './mrz-formats.js';
import { checkMrz, repairMrz } from './mrz-parse.js';

/** [from, to) spans of each line that a check digit covers (ICAO 9303 parts 4-7), check digits included. */
export const CHECKED_SPANS: Record<MrzFormat, Array<Array<[number, number]>>> = {
  TD1: [
    [[5, 30]],
    [
      [0, 7],
      [8, 15],
      [18, 30],
    ],
    [],
  ],
  TD2: [
    [],
    [
      [0, 10],
      [13, 20],
      [21, 36],
    ],
  ],
  TD3: [
    [],
    [
      [0, 10],
      [13, 20],
      [21, 44],
    ],
  ],
  MRVA: [
    [],
    [
      [0, 10],
      [13, 20],
      [21, 28],
    ],
  ],
  MRVB: [
    [],
    [
      [0, 10],
      [13, 20],
      [21, 28],
    ],
  ],
};

/** More disagreeing places than this and the readings are too poor to mix (and the mixes too many to check). */
const MAX_MIXED_PLACES = 3;
const MAX_UNCHECKED_PLACES = 2;

const checked = (format: MrzFormat, index: number, column: number): boolean => (CHECKED_SPANS[format][index] ?? []).some(([from, to]) => column >= from && column < to);

const hasCheckedPlaces = (format: MrzFormat, index: number): boolean => (CHECKED_SPANS[format][index] ?? []).length > 0;

/**
 * Every line made of two readings' characters where they disagree at checked places (the readings themselves
 * excluded), for each pair of readings that disagree in few enough places.
 */
export function mixedLines(format: MrzFormat, index: number, readings: readonly string[]): string[] {
  const distinct = [...new Set(readings)];
  const mixes = new Set<string>();
  for (let a = 0; a < distinct.length; a++) {
    for (let b = a + 1; b < distinct.length; b++) {
      for (const line of mixPair(format, index, distinct[a]!, distinct[b]!)) if (!distinct.includes(line)) mixes.add(line);
    }
  }
  return [...mixes];
}

function mixPair(format: MrzFormat, index: number, one: string, other: string): string[] {
  if (one.length !== other.length) return [];
  const places: number[] = [];
  let unchecked = 0;
  for (let column = 0; column < one.length; column++) {
    if (one[column] === other[column]) continue;
    // A nationality or sex letter read two ways stays as the first reading has it; more such places and the
    // two readings are not of the same line.
    if (!checked(format, index, column)) {
      if (++unchecked > MAX_UNCHECKED_PLACES) return [];
      continue;
    }
    places.push(column);
  }
  if (places.length > MAX_MIXED_PLACES) return [];
  const out: string[] = [];
  for (let mask = 1; mask < 1 << places.length; mask++) {
    const chars = [...one];
    places.forEach((column, bit) => {
      if (mask & (1 << bit)) chars[column] = other[column]!;
    });
    out.push(chars.join(''));
  }
  return out;
}

/**
 * The one zone, made of the readings' lines and their mixes, whose check digits all verify (after the layout
 * repair, without any letter/digit correction), or null when none or several do. Lines no check digit covers
 * (the names) stay as `base` has them: they cannot tell mixes apart.
 */
export function verifiedMix(format: MrzFormat, readings: ReadonlyArray<readonly string[]>, base: readonly string[]): string[] | null {
  const perLine = base.map((line, index) => {
    if (!hasCheckedPlaces(format, index)) return [line];
    const read = readings.map((lines) => lines[index] ?? '').filter((l) => l.length > 0);
    return [...new Set(read), ...mixedLines(format, index, read)];
  });
  const valid = new Map<string, string[]>();
  const choose = (index: number, picked: string[]): void => {
    if (index === perLine.length) {
      const lines = repairMrz(format, picked);
      if (checkMrz(lines).valid) valid.set(lines.join('\n'), lines);
      return;
    }
    for (const option of perLine[index]!) choose(index + 1, [...picked, option]);
  };
  choose(0, []);
  return valid.size === 1 ? [...valid.values()][0]! : null;
}
