// Mixing readings of an MRZ character by character where they disagree, decided by the check digits alone.
import { buildMrv, buildTd1, buildTd2, buildTd3 } from '@kyc/fixtures';
import { describe, expect, it } from 'vitest';
import type { MrzFormat } from '../../../src/engines/ocr/mrz-formats.js';
import { CHECKED_SPANS, mixedLines, verifiedMix } from '../../../src/engines/ocr/mrz-mix.js';
import { checkMrz, repairMrz } from '../../../src/engines/ocr/mrz-parse.js';

const NAMES = 'POD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<';
const TRUTH = 'C01YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8';

describe('verifiedMix', () => {
  it('reads the infrared German page: the LSTM engine read O for 0, the legacy one H for M; the mix verifies', () => {
    const lstm = [NAMES, 'CO1YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8'];
    const legacy = [NAMES, 'C01YPTNHH1D<<6408125F2702283<<<<<<<<<<<<<<<8'];
    expect(checkMrz(lstm).valid).toBe(false);
    expect(checkMrz(legacy).valid).toBe(false);
    expect(verifiedMix('TD3', [lstm, legacy], lstm)).toEqual([NAMES, TRUTH]);
  });

  it('keeps the name line as the base reading has it: no check digit covers it', () => {
    const base = [NAMES, 'CO1YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8'];
    const other = ['POD<<MUSTERHANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01YPTNHH1D<<6408125F2702283<<<<<<<<<<<<<<<8'];
    expect(verifiedMix('TD3', [base, other], base)?.[0]).toBe(NAMES);
  });

  it('answers nothing when two different zones verify (G and 6 weigh alike in every check digit)', () => {
    const withG = ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', buildTd3Line('C01YPTGHM')];
    const with6 = [withG[0]!, withG[1]!.replace('C01YPTGHM', 'C01YPT6HM')];
    // Each reading also misreads one birth-date digit, so neither verifies alone.
    const a = [withG[0]!, swapAt(withG[1]!, 14, '9')];
    const b = [with6[0]!, swapAt(with6[1]!, 15, '9')];
    expect(verifiedMix('TD3', [a, b], a)).toBeNull();
  });

  it('keeps the first reading where no check digit looks (nationality, sex); readings differing in three such places are not mixed', () => {
    const one = 'CO1YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8';
    const other = 'C01YPTNHM1O<<6408125M2702283<<<<<<<<<<<<<<<8';
    expect(mixedLines('TD3', 1, [one, other])).toEqual([TRUTH]);
    const third = 'C01YPTNHM1O<<6408125M2702283<<<<<<<<<<<<<<<8'.replace('1O<<', '1OO<');
    expect(mixedLines('TD3', 1, [one, third])).toEqual([]);
  });

  it('gives up on readings that disagree in more than three places', () => {
    expect(mixedLines('TD3', 1, ['CO1YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8', 'C01YPTNHH1D<<6408I25F2702Z83<<<<<<<<<<<<<<<8'])).toEqual([]);
  });

  /*
   * The risk the check digits cannot remove: an error both readings share, "compensated" by a mix of their other
   * differences (mod 10). Simulated on random zones with 1-3 OCR confusions per reading (letter/digit, H/M/N,
   * E/F, L/1...), two or three readings each, every reading failing: the mix must answer most of them and be right
   * far more often than a single misread reading that happens to verify (about 80 % right, same simulation).
   */
  it.each(['TD1', 'TD2', 'TD3', 'MRVA', 'MRVB'] as const)('%s: on simulated misreadings it answers often and is right at least 98.5 %% of the time', (format) => {
    const random = seeded(20261129);
    let answered = 0;
    let right = 0;
    let tried = 0;
    for (let trial = 0; trial < 1500; trial++) {
      const truth = randomZone(format, random);
      const readings = [misread(truth, format, Math.floor(random() * 3), random), misread(truth, format, 1 + Math.floor(random() * 3), random)];
      if (random() < 0.3) readings.push(misread(truth, format, 1 + Math.floor(random() * 3), random));
      if (readings.some((r) => checkMrz(repairMrz(format, r)).valid)) continue;
      tried++;
      const mixed = verifiedMix(format, readings, readings[0]!);
      if (!mixed) continue;
      answered++;
      if (checkedLinesOf(format, mixed) === checkedLinesOf(format, truth)) right++;
    }
    expect(tried).toBeGreaterThan(300);
    expect(answered / tried).toBeGreaterThan(0.35);
    expect(right / answered).toBeGreaterThanOrEqual(0.985);
  });
});

function buildTd3Line(documentNumber: string): string {
  return buildTd3({
    documentCode: 'P<',
    issuer: 'D<<',
    surnames: ['MUSTERMANN'],
    givenNames: 'ERIKA',
    documentNumber,
    nationality: 'D<<',
    birthDate: { y: 1964, m: 8, d: 12 },
    sex: 'F',
    expiryDate: { y: 2027, m: 2, d: 28 },
    personalNumber: '',
  })[1];
}

const swapAt = (line: string, column: number, char: string): string => line.slice(0, column) + char + line.slice(column + 1);

const checkedLinesOf = (format: MrzFormat, lines: readonly string[]): string => (format === 'TD1' ? lines.slice(0, 2) : lines.slice(1, 2)).join('\n');

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
/** What OCR engines take one OCR-B character for. */
const CONFUSIONS: Record<string, string> = {
  O: '0DQ',
  '0': 'ODQ',
  D: '0O',
  Q: '0O',
  I: '1L',
  '1': 'IL7',
  L: '1I',
  B: '83',
  '8': 'B3',
  S: '5',
  '5': 'S6',
  Z: '2',
  '2': 'Z',
  G: '6',
  '6': 'G85',
  H: 'MN',
  M: 'HN',
  N: 'MH',
  E: 'F',
  F: 'E',
  '3': '8',
  '7': '1',
  '4': 'A',
  A: '4',
  U: 'V',
  V: 'U',
  C: 'G',
  K: 'X',
  X: 'K',
  P: 'R',
  R: 'P',
  T: '7',
  Y: 'V',
  W: 'M',
  J: 'I',
  '9': '8',
};
/** The simulation misreads the places check digits look at (the only places a mix may change). */
const SPANS = CHECKED_SPANS;

function randomZone(format: MrzFormat, random: () => number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const text = (length: number, alphabet: string) => Array.from({ length }, () => pick([...alphabet])).join('');
  const date = () => ({ y: 1950 + Math.floor(random() * 60), m: 1 + Math.floor(random() * 12), d: 1 + Math.floor(random() * 28) });
  // No MEX: its own number layouts would repair random numbers.
  const country = () => pick(['D<<', 'AUS', 'USA', 'FRA', 'UTO', 'ESP']);
  const base = {
    issuer: country(),
    surnames: ['MUSTERMANN'],
    givenNames: 'ERIKA',
    documentNumber: text(9, LETTERS + DIGITS),
    nationality: country(),
    birthDate: date(),
    sex: pick(['M', 'F'] as const),
    expiryDate: date(),
  };
  if (format === 'TD3') return buildTd3({ ...base, documentCode: 'P<', personalNumber: random() < 0.5 ? '' : text(10, DIGITS + LETTERS) });
  if (format === 'TD2') return buildTd2({ ...base, documentCode: 'I<', optional: random() < 0.5 ? '' : text(5, DIGITS) });
  if (format === 'TD1') return buildTd1({ ...base, documentCode: 'ID', optional1: random() < 0.5 ? '' : text(8, DIGITS), optional2: '' });
  return buildMrv(format, { ...base, documentCode: 'V<', optional: '' });
}

function misread(lines: readonly string[], format: MrzFormat, errors: number, random: () => number): string[] {
  const out = lines.map((line) => [...line]);
  const checkedLines = SPANS[format].flatMap((spans, index) => (spans.length > 0 ? [index] : []));
  for (let done = 0, guard = 0; done < errors && guard < 200; guard++) {
    const index = checkedLines[Math.floor(random() * checkedLines.length)]!;
    const spans = SPANS[format][index]!;
    const [from, to] = spans[Math.floor(random() * spans.length)]!;
    const column = from + Math.floor(random() * (to - from));
    const options = CONFUSIONS[out[index]![column]!];
    if (!options) continue;
    out[index]![column] = options[Math.floor(random() * options.length)]!;
    done++;
  }
  return out.map((chars) => chars.join(''));
}
