/**
 * The INE front's three name lines checked against the CURP printed under them. A sound CURP (format and check
 * digit) spells seven of the names' letters: each surname's initial, the first one's first inner vowel, the given
 * name's initial, and the first inner consonant of all three (Ñ spelled X). Of several readings of the names, the
 * one those letters confirm is taken, and an Ñ the CURP spells N was a misread (docs/decisions.md "Names and codes
 * that vouch for each other").
 */
import { curpGivenName, curpNameWords, enyeToX, firstInner, isCurpCheckDigitValid, isCurpFormat } from '@kyc/contracts/rules';
import { curpNameLetters } from '../id-codes.js';
import { letterKey } from '../lexicon.js';
import { rankedAbove } from './text.js';

export interface NameFields {
  apellidoPaterno: string;
  apellidoMaterno: string;
  nombres: string;
}

/** Name lines as fields: three lines are first surname, second surname, given names; two lack the second surname. */
export function asNameFields(lines: readonly string[]): NameFields {
  const [apellidoPaterno = '', apellidoMaterno = '', nombres = ''] = lines.length === 2 ? [lines[0], '', lines[1]] : lines;
  return { apellidoPaterno, apellidoMaterno, nombres };
}

/**
 * Names whose CURP letters (first surname's initial and first inner vowel, second surname's and given name's
 * initials) differ from a sound CURP's in two places or more were read from something else: lines out of order,
 * a busy background taken for print. One difference is left alone (a rule of the CURP's letters this reader does
 * not apply, or one misread initial the person corrects in the form).
 */
export function contradictsCurp(names: NameFields, curp: string): boolean {
  // Only a whole CURP whose check digit verifies can contradict anything ('curp_incomplete' is no failure warning).
  if (!isCurpFormat(curp) || !isCurpCheckDigitValid(curp)) return false;
  const letters = curpNameLetters(names);
  if (!letters) return false;
  return [...letters.initials].filter((c, i) => c !== curp[i]).length >= 2;
}

/** How many of the seven name letters of the CURP (positions 1-4 and 14-16) these names give. */
export function curpLetterAgreement(names: NameFields, curp: string): number {
  const letters = curpNameLetters(names);
  if (!letters) return 0;
  const spelled = curp.slice(0, 4) + curp.slice(13, 16);
  return [...(letters.initials + letters.consonants)].filter((c, i) => c === spelled[i]).length;
}

/**
 * Of the candidate readings of the names (the one chosen by the reading's own rules first), the one whose letters the
 * CURP confirms most; a tie keeps the earlier. Only readings of three lines compete with the first: a reading that
 * lost a line agrees on fewer letters by construction and is no better evidence.
 */
export function namesConfirmedByCurp(candidates: ReadonlyArray<readonly string[]>, curp: string): string[] {
  const [first = [], ...others] = candidates;
  let best = first;
  let bestScore = curpLetterAgreement(asNameFields(first), curp);
  for (const lines of others) {
    if (lines.length !== 3) continue;
    const score = curpLetterAgreement(asNameFields(lines), curp);
    if (score > bestScore) {
      best = lines;
      bestScore = score;
    }
  }
  return [...best];
}

/**
 * Each of the three lines with its word's first inner consonant spelled as the codes spell it, N or Ñ (an Ñ is
 * spelled X). An Ñ the CURP spells N was the OCR's own tilde and is taken off. An N both codes spell X is an Ñ whose
 * tilde the reading lost (the E/F and G/H names are packed so close that it touches the line above): the CURP and the
 * clave de elector are printed on the same card, and a misread that keeps the CURP's check digit and makes the clave
 * say the same is far less likely than a lost tilde. The clave is asked only for a word starting with a consonant
 * (see claveAgreement). Nothing else in the word is changed: the codes do not say where else an Ñ stands.
 */
export function enyeAsCodesSpell(lines: readonly string[], curp: string, clave: string): string[] {
  if (lines.length !== 3) return [...lines];
  return lines.map((line, k) => {
    const word = k === 2 ? curpGivenName(line) : (curpNameWords(line)[0] ?? '');
    const inner = firstInnerConsonantAt(word);
    if (inner < 0) return line;
    const curpSays = curp[13 + k];
    const claveSays = /^[A-ZÑ]{6}/.test(clave) && !'AEIOU'.includes(word[0]!) && clave[2 * k] === word[0] ? clave[2 * k + 1] : undefined;
    const spelled = word[inner] === 'Ñ' && curpSays === 'N' ? 'N' : word[inner] === 'N' && curpSays === 'X' && claveSays === 'X' ? 'Ñ' : null;
    return spelled ? withLetter(line, word, inner, spelled) : line;
  });
}

/**
 * The three lines with any whose letters the CURP contradicts all at once left empty: a given name read `XO` where the
 * CURP spells E…F is not the given name but something else read in its place (the photo, a lost line's end). One
 * letter off is left (a misread initial the person corrects in the form).
 */
export function withoutContradictedLines(lines: readonly string[], curp: string): string[] {
  if (lines.length !== 3) return [...lines];
  return lines.map((line, k) => {
    const letters = curpLettersOfLine(line, k, curp);
    return letters.length > 0 && letters.every(([own, spelled]) => own !== spelled) ? '' : line;
  });
}

/** One reading of the names crop or of the page: its name lines and each line's mean word confidence (0-100). */
export interface NameReading {
  lines: readonly string[];
  lineConfidences: readonly number[];
}

/**
 * Line by line, the reading of each of the three name lines to return: of the versions the readings give of it with
 * the same words' lengths (a letter misread, not a word lost or split), the one whose letters the CURP confirms most,
 * then the one most readings agree with (letter for letter, marks aside), then the surest (its words' mean
 * confidence). The chosen line stays unless another version ranks above it. The E/F names are packed so close that
 * the small page read gives `VAZOVEZ` (confidence 40) where a full-size crop reads the printed `VAZQUEZ` at 96, and
 * the CURP spells the same letters for both (docs/decisions.md "The INE names voted line by line").
 */
export function namesVotedByLine(chosen: readonly string[], readings: readonly NameReading[], curp: string): string[] {
  if (chosen.length !== 3) return [...chosen];
  return chosen.map((line, k) => {
    const shape = wordLengths(line);
    const versions = readings
      .filter((r) => r.lines.length === 3 && wordLengths(r.lines[k]!) === shape)
      .map((r) => ({ text: r.lines[k]!, key: letterKey(r.lines[k]!), confidence: r.lineConfidences[k] ?? 0 }));
    const rankOf = (key: string, text: string): number[] => {
      const agreeing = versions.filter((v) => v.key === key);
      return [curpLineAgreement(text, k, curp), agreeing.length, Math.max(0, ...agreeing.map((v) => v.confidence))];
    };
    let best = { text: line, rank: rankOf(letterKey(line), line) };
    for (const version of versions) {
      const rank = rankOf(version.key, version.text);
      if (rankedAbove(rank, best.rank)) best = { text: version.text, rank };
    }
    return best.text;
  });
}

/** How many of the CURP's letters for line `k` (initial, the first surname's first inner vowel, first inner consonant) the line gives. */
function curpLineAgreement(line: string, k: number, curp: string): number {
  return curpLettersOfLine(line, k, curp).filter(([own, spelled]) => own === spelled).length;
}

/**
 * The letters the CURP spells for name line `k` (0 first surname, 1 second, 2 given names), each beside the line's
 * own: the initial, the first surname's first inner vowel, the first inner consonant. None for a line without a word.
 */
function curpLettersOfLine(line: string, k: number, curp: string): Array<[string, string | undefined]> {
  const word = k === 2 ? curpGivenName(line) : (curpNameWords(line)[0] ?? '');
  if (!word) return [];
  return [[enyeToX(word[0]!), curp[[0, 2, 3][k]!]], [firstInner(word, false), curp[13 + k]], ...(k === 0 ? [[firstInner(word, true), curp[1]] as [string, string | undefined]] : [])];
}

/** Each word's count of letters: 'VAZQUEZ' and 'VAZOVEZ' have the same, 'MARIA' and 'MARIA JOSE' do not. */
const wordLengths = (line: string) =>
  line
    .split(/\s+/)
    .map((w) => letterKey(w).length)
    .filter((n) => n > 0)
    .join(',');

/** The line with the letter at `index` of its word `word` (as curpNameWords spells it) replaced. */
function withLetter(line: string, word: string, index: number, letter: string): string {
  const words = line.normalize('NFC').split(' ');
  const at = words.findIndex((w) => curpNameWords(w)[0] === word);
  if (at < 0) return line;
  const printed = [...words[at]!];
  if (!'NÑ'.includes(printed[index]?.toUpperCase() ?? '')) return line;
  printed[index] = letter;
  words[at] = printed.join('');
  return words.join(' ');
}

function firstInnerConsonantAt(word: string): number {
  for (let i = 1; i < word.length; i += 1) if (/[A-ZÑ]/.test(word[i]!) && !'AEIOU'.includes(word[i]!)) return i;
  return -1;
}
