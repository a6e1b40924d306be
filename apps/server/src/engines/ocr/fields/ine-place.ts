/**
 * The last line of an INE address: 'MUNICIPIO, EDO.' as printed. On a blurred or busy photo the comma goes, or the
 * municipality line is lost and only the state's abbreviation is read; the abbreviation is then never taken for a
 * municipality.
 */
import { cleanWords } from './text.js';

/** The states' abbreviations as INE cards print them, dots and spaces removed. */
const STATE_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'AGS',
  'BC',
  'BCS',
  'CAMP',
  'COAH',
  'COL',
  'CHIS',
  'CHIH',
  'CDMX',
  'DF',
  'DGO',
  'GTO',
  'GRO',
  'HGO',
  'JAL',
  'MEX',
  'EDOMEX',
  'MICH',
  'MOR',
  'NAY',
  'NL',
  'OAX',
  'PUE',
  'QRO',
  'QROO',
  'SLP',
  'SIN',
  'SON',
  'TAB',
  'TAMPS',
  'TLAX',
  'VER',
  'YUC',
  'ZAC',
]);

export const isStateAbbreviation = (word: string): boolean => STATE_ABBREVIATIONS.has(word.replace(/[.\s]/g, ''));

/** 'URUAPAN, MICH.': words, a comma and one short word, the shape of the address's last line (its state maybe misread). */
export const hasPlaceShape = (line: string) => /^[A-ZÑÁÉÍÓÚÜ][A-ZÑÁÉÍÓÚÜ .]*,\s*[A-Z][A-Z.]{1,7},?$/.test(line.trim());

/** The place line as printed: its shape, and a state's abbreviation after the comma (a final comma read for its dot). */
export const isPrintedPlace = (line: string) => hasPlaceShape(line) && isStateAbbreviation(splitPlace(line).estado);

export function splitPlace(printed: string): { municipio: string; estado: string } {
  // Nothing follows a comma at the end of the line: that mark is the abbreviation's dot ('MANZANILLO, COL,').
  const place = printed.trim().replace(/,$/, '.');
  const comma = place.lastIndexOf(',');
  if (comma >= 0) {
    const municipio = cleanWords(place.slice(0, comma));
    return { municipio: isStateAbbreviation(municipio) ? '' : municipio, estado: cleanWords(place.slice(comma + 1), { keepPunctuation: true }) };
  }
  const words = cleanWords(place, { keepPunctuation: true }).split(' ').filter(Boolean);
  const last = words.at(-1) ?? '';
  if (!isStateAbbreviation(last)) return { municipio: cleanWords(place), estado: '' };
  // The comma lost: the municipality is what comes before the abbreviation; the state is taken only with its
  // printed final dot (a dot the OCR lost is not put back).
  return { municipio: cleanWords(words.slice(0, -1).join(' ')), estado: last.endsWith('.') || last === 'CDMX' ? last : '' };
}
