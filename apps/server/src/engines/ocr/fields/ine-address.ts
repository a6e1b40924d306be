import { letterKey, markCount } from '../lexicon.js';
import { hasPlaceShape, isPrintedPlace } from './ine-place.js';
import { rankedAbove } from './text.js';

/**
 * The INE front's address as the readings of it agree (docs/decisions.md "The INE address voted line by line"). The
 * page read (at PAGE_SCALE) and the address crop's readings (full size, then binarised and enlarged) each give the
 * street, the colonia's line and the place; each of the three is taken from the reading most others agree with, then
 * the surest, so a crop that read `ROCCA` (confidence 16) where the page read `AV JUAREZ` (90) does not win, nor a
 * page that read `33639` where three crop readings say `38639`.
 */

export interface AddressWord {
  text: string;
  /** tesseract's word confidence, 0-100. */
  confidence: number;
}

export type AddressLine = readonly AddressWord[];

/** One reading of the address block, line by line (label lines left out by the caller). */
export type AddressReading = readonly AddressLine[];

const hasLetterOrDigit = (text: string) => /[\p{L}\p{N}]/u.test(text);
const lone = (text: string) => /^[\p{L}\p{N}]$/u.test(text);

/**
 * The line without the marks a reading picks up at the block's edges: tokens with no letter or digit ('|', '—'), a
 * lone character before the street or the place ('E CDA PEÑUELAS', 'V URUAPAN'; 'C' is the street type the card
 * prints), one after the postal code ('58269 A') or after the state ('MICH. J'), and one after the street's number
 * read far less surely than the number (`645 E` at 46 beside 645 at 87): a suffix printed on the card (`621 A`) is
 * read as surely as its number.
 */
export function trimmedLine(line: AddressLine): AddressWord[] {
  const words = line.filter((w) => w.text.trim() !== '');
  while (words.length > 0 && !hasLetterOrDigit(words[0]!.text)) words.shift();
  while (words.length > 0 && !hasLetterOrDigit(words[words.length - 1]!.text)) words.pop();
  if (words.length > 2 && lone(words[0]!.text) && words[0]!.text !== 'C' && /^\p{L}{2,}/u.test(words[1]!.text)) words.shift();
  const last = words.length - 1;
  if (last >= 2 && /^\p{L}$/u.test(words[last]!.text) && (/^\d{5}$/.test(words[last - 1]!.text) || /\.$/.test(words[last - 1]!.text))) words.pop();
  else if (last >= 2 && /^\p{L}$/u.test(words[last]!.text) && /^\d+$/.test(words[last - 1]!.text) && isDoubtfulBeside(words[last]!, words[last - 1]!)) words.pop();
  return words;
}

/** A word read below DOUBTFUL_WORD and at least DOUBT_GAP below its neighbour (both tesseract confidences, 0-100). */
const isDoubtfulBeside = (word: AddressWord, neighbour: AddressWord) => word.confidence < DOUBTFUL_WORD && neighbour.confidence - word.confidence >= DOUBT_GAP;
const DOUBTFUL_WORD = 60;
const DOUBT_GAP = 25;

const textOf = (line: AddressLine) => line.map((w) => w.text).join(' ');

/** A word of ten or more letters and digits mixed: a code's (the clave's row cut with the address), no address word. */
const isCodeWord = (text: string) => text.length >= 10 && /\d/.test(text) && /\p{L}/u.test(text);

/** The colonia's line starts COL ('OL' with its C lost at the photo's edge), or ends in the postal code. */
const coloniaLineAt = (lines: readonly string[]) => {
  const byLabel = lines.findIndex((l) => /^C?[O0]L\b/.test(l));
  return byLabel >= 0 ? byLabel : lines.findIndex((l) => /(?:^|\s)\d{5}$/.test(l));
};

interface AddressSlots {
  street?: AddressWord[];
  colonia?: AddressWord[];
  place?: AddressWord[];
}

/**
 * A reading's street (the lines above the colonia's), colonia line and place (the lines below it, up to the place's
 * own shape); lines of codes and lines after the place are no part of the address. A reading without a colonia line
 * gives its three lines in order, or nothing: which line it lost is not known.
 */
export function addressSlots(reading: AddressReading): AddressSlots {
  const lines: AddressWord[][] = [];
  for (const line of reading) {
    const words = trimmedLine(line);
    if (words.length === 0 || words.some((w) => isCodeWord(w.text))) continue;
    lines.push(words);
    if (lines.length > 1 && hasPlaceShape(textOf(words))) break;
  }
  let coloniaAt = coloniaLineAt(lines.map(textOf));
  if (coloniaAt < 0 && lines.length === 3) coloniaAt = 1;
  if (coloniaAt < 0) return {};
  const street = lines.slice(0, coloniaAt).flat();
  const place = lines.slice(coloniaAt + 1).flat();
  return {
    ...(street.length > 0 ? { street } : {}),
    colonia: lines[coloniaAt]!,
    ...(place.length > 0 ? { place } : {}),
  };
}

const enyeCount = (text: string) => (text.normalize('NFC').match(/Ñ/g) ?? []).length;

const meanConfidence = (words: readonly AddressWord[]) => words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, words.length);

/**
 * Of the readings' versions of one line, one with the line's printed shape first, then the one most readings agree
 * with (letter for letter, marks aside), then the surest (mean word confidence); within the agreeing ones, the one
 * that kept the most marks (the LSTM drops an Ñ's tilde far more often than it adds one); a full tie keeps the
 * earlier reading. Then a word any version read with an Ñ where the chosen one read N takes the Ñ: the version that
 * read `PEÑUELAS` may lose the vote on its broken number (`315 INT]`), not its tilde. Acute accents are not borrowed
 * this way: the OCR's Spanish word model writes some in by itself (`CÓL`).
 */
export function votedLine(versions: ReadonlyArray<readonly AddressWord[] | undefined>, shaped: (line: string) => boolean = () => true): string {
  const present = versions.filter((v): v is readonly AddressWord[] => v !== undefined && v.length > 0);
  let best: { text: string; rank: [number, number, number] } | null = null;
  for (const version of present) {
    const key = letterKey(textOf(version));
    const agreeing = present.filter((other) => letterKey(textOf(other)) === key);
    const rank: [number, number, number] = [Number(shaped(textOf(version))), agreeing.length, Math.max(...agreeing.map(meanConfidence))];
    const text = agreeing.map(textOf).reduce((most, t) => (markCount(t) > markCount(most) ? t : most));
    if (!best || rankedAbove(rank, best.rank)) best = { text, rank };
  }
  if (!best) return '';
  const words = present.flat().map((w) => w.text);
  return best.text
    .split(' ')
    .map((word) => words.filter((w) => letterKey(w) !== '' && letterKey(w) === letterKey(word)).reduce((most, w) => (enyeCount(w) > enyeCount(most) ? w : most), word))
    .join(' ');
}

/** The street's line ends in its number, digits maybe read as letters ('1O2'); a letter read after it, INT and its number may follow. */
const isStreetLine = (line: string) => /^[A-ZÑÁÉÍÓÚÜ][^,]*\s[0-9A-Z]*\d[0-9A-Z]*(?:\s[A-Z])?(?:\s+INT\.?\s+\S+)?$/.test(line);

/** COL (or COL., as the IFE prints it), the colonia's name and its postal code. */
const isColoniaLine = (line: string) => /^C[O0]L\.?\s+\S.*\s\d{5}$/.test(line);

/** The address lines (street, colonia line, place) voted from the readings, in the order given for ties. */
export function votedAddressLines(readings: readonly AddressReading[]): string[] {
  const slots = readings.map(addressSlots);
  return [
    votedLine(
      slots.map((s) => s.street),
      isStreetLine,
    ),
    votedLine(
      slots.map((s) => s.colonia),
      isColoniaLine,
    ),
    votedLine(
      slots.map((s) => s.place),
      isPrintedPlace,
    ),
  ].filter(Boolean);
}
