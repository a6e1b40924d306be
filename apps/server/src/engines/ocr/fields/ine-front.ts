/**
 * INE/IFE "credencial para votar" front, every model in circulation: the whole card is read once, its labels
 * located and each value taken where its label says (ine-anchored.ts); the codes and short numbers are cut at
 * those places and read again (legacy engine too). The fixed boxes below are only the fallback for a card whose
 * page read found nothing. A field not read stays empty; label words never pass as values; what is printed is
 * returned as printed (docs/decisions.md "Label-anchored ID reading").
 */
import { isCurpCheckDigitValid, isCurpFormat, normaliseOcrBirthDate, ocrCurpOrEmpty, ocrValidityYear, type DateParts } from '@kyc/contracts/rules';
import { claveBirthState, claveNameLetters, curpNameLetters, repairClaveFrom, repairCurpFrom } from '../id-codes.js';
import type { Region } from '../page.js';
import { asDigits, cleanName, cleanWords, dateText, findDate, findDigits, nameFields, lineWords, readText } from './text.js';
import { isLabelWord, readFrontByLabels, type AnchoredFront, type AnchoredKey, type AnchoredValue } from './ine-anchored.js';
import { votedAddressLines } from './ine-address.js';
import { splitPlace } from './ine-place.js';
import { asNameFields, contradictsCurp, enyeAsCodesSpell, namesConfirmedByCurp, namesVotedByLine, withoutContradictedLines, type NameFields, type NameReading } from './ine-names.js';
import type { RawRead } from '../pool.js';
import { letterKey, markCount, plainForm } from '../lexicon.js';
import { code, CURP_RETRY, DIGITS, documentFlags, line, px, readConfidence, readings, sexLetter, short, type DocumentReader, type ParseInput, type ParsedSide } from './spec.js';

const H = 1262;

/** Each reading of the names crop as its name lines (label lines left out), at most three, with their confidences. */
function nameReadings(input: ParseInput): Array<NameReading & { lines: string[]; confidence: number }> {
  return readings(input, 'names').map((reading) => {
    const kept = reading.lines
      .map((line) => ({ text: cleanName(lineWords(line).join(' ')), line }))
      .filter(({ text }) => isNameLine(text))
      .slice(0, 3);
    return { lines: kept.map(({ text }) => text), lineConfidences: kept.map(({ line }) => lettersConfidence(line.words)), confidence: readConfidence(reading) };
  });
}

/** The mean confidence of a line's words that hold a letter (a border's `—` read beside a name aside). */
function lettersConfidence(words: ReadonlyArray<{ text: string; confidence: number }>): number {
  const lettered = words.filter((w) => /\p{L}/u.test(w.text));
  return lettered.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, lettered.length);
}

/**
 * The page read's name lines, at most three, each with its words' mean confidence (a little below it: see
 * PAGE_LINE_CONFIDENCE_SHARE).
 */
function pageNameReading(names: AnchoredValue | undefined): NameReading & { lines: string[] } {
  const kept = (names?.lines ?? [])
    .map((line, i) => ({ text: cleanName(line), confidence: (names?.lineConfidences?.[i] ?? names?.confidence ?? 0) * 100 * PAGE_LINE_CONFIDENCE_SHARE }))
    .filter(({ text }) => isNameLine(text))
    .slice(0, 3);
  return { lines: kept.map(({ text }) => text), lineConfidences: kept.map(({ confidence }) => confidence) };
}

/** A name line has two letters at least (a date read beside the names, '01/06/1996', is none) and no label word. */
const isNameLine = (line: string) => /\p{L}.*\p{L}/u.test(line) && !line.split(' ').some(isLabelWord);

/** The name lines (first surname, second surname, given names) of the best reading: most lines, then confidence. */
function nameLines(readingsOfNames: ReadonlyArray<{ lines: string[]; confidence: number }>): string[] {
  let best: string[] = [];
  let bestScore = -1;
  for (const { lines, confidence } of readingsOfNames) {
    const score = lines.length * 1000 + confidence;
    if (score > bestScore) {
      bestScore = score;
      best = lines;
    }
  }
  return best;
}

export interface IneAddress {
  calle: string;
  numero: string;
  colonia: string;
  cp: string;
  municipio: string;
  estado: string;
}

/** 'C MORELOS 12 INT 3' / 'COL CENTRO 44100' / 'GUADALAJARA, JAL.' as printed on the card. */
export function parseIneAddress(rawLines: string[]): IneAddress {
  const lines = rawLines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  // The line starting COL is the colonia's; else the first ending in a postal code (a street number misread to five
  // digits must not take the colonia's place when the COL line was read).
  // 'OL' is COL whose C was lost by the photo's edge.
  let coloniaAt = lines.findIndex((l) => /^C?[O0]L\b/.test(l));
  if (coloniaAt < 0) coloniaAt = lines.findIndex((l) => /(?:^|\s)\d{5}$/.test(asDigits(l)));
  if (coloniaAt < 0 && lines.length >= 3) coloniaAt = 1;
  const street = withStreetTypeApart(coloniaAt >= 0 ? lines.slice(0, coloniaAt).join(' ') : (lines[0] ?? ''));
  const colonia = coloniaAt >= 0 ? lines[coloniaAt]! : '';
  const place = coloniaAt >= 0 ? lines.slice(coloniaAt + 1).join(' ') : lines.slice(1).join(' ');

  // The number may carry a lone letter read after it ('621 E'): kept with the number as read, out of the street's name.
  const numberMatch = /^(.*?)\s+(\S+(?:\s[A-Z](?=$|\s))?(?:\s+INT\.?\s+\S+)?)$/.exec(street);
  const isNumber = (token: string) => /\d/.test(token) && /^\d+$/.test(asDigits(token));
  const numberToken = numberMatch?.[2]?.split(' ')[0] ?? '';
  const hasNumber = numberMatch !== null && isNumber(numberToken);
  const cpMatch = /^(.*?)\s*(\S{5})$/.exec(colonia);
  const cp = cpMatch && /^\d{5}$/.test(asDigits(cpMatch[2]!)) ? asDigits(cpMatch[2]!) : '';
  return {
    // 'C' (calle) is the one single-letter street type printed before the name.
    calle: cleanWords(hasNumber ? numberMatch[1]! : street, { keepPunctuation: true, keepFirst: /^C$/ }),
    numero: hasNumber ? normaliseNumber(numberMatch[2]!) : '',
    colonia: cleanWords((cp ? cpMatch![1]! : colonia).replace(/^(?:C[O0]L\.?\s*|[O0]L\.?\s+)/, '')),
    cp,
    ...splitPlace(place),
  };
}

/**
 * The validity year from the years read at VIGENCIA. The G/H card and the one issued abroad print a range ('2019 -
 * 2029', issue year first, ten years of validity by law): one year read alone there may be either end, and two years
 * not ten apart hold a misread digit; both are left empty (an expired-looking year would refuse a valid card). E/F
 * print the one year, ten after the EMISIÓN year beside it: the two not ten apart hold a misread digit too. Other
 * models print the one year.
 */
export function validityYear(years: readonly string[], model: string | undefined, warnings: string[], emission = ''): string {
  if (years.length === 0) return '';
  const last = years[years.length - 1]!;
  const consistent =
    years.length >= 2 ? Number(last) - Number(years[0]) === 10 : !RANGE_VALIDITY_MODELS.has(model ?? '') && (model !== 'E/F' || !/^\d{4}$/.test(emission) || Number(last) - Number(emission) === 10);
  if (!consistent) {
    warnings.push('vigencia_unreadable');
    return '';
  }
  return ocrValidityYear(last);
}

/**
 * What EMISIÓN prints: the year the card was issued on the E/F and IFE models ('2008', beside a one-year VIGENCIA),
 * two digits on the others (there a year in the read is the next value's, the VIGENCIA range's first). The first
 * such number of the read, never two digits cut out of a longer one. On E/F only a year: two digits there are what
 * was left of the year on a card running past the photo's edge ('25' of 2022).
 */
export function emissionPrinted(text: string, model: string | undefined): string | null {
  const pattern = model === 'E/F' ? /(?<!\d)(?:19|20)\d{2}(?!\d)/ : EMISSION_YEAR_MODELS.has(model ?? '') ? /(?<!\d)(?:(?:19|20)\d{2}|\d{2})(?!\d)/ : /(?<!\d)\d{2}(?!\d)/;
  return pattern.exec(asDigits(text).replace(/[^\d]+/g, ' '))?.[0] ?? null;
}

/** Models whose VIGENCIA is a range of years. */
const RANGE_VALIDITY_MODELS: ReadonlySet<string> = new Set(['G/H', 'desde el extranjero']);

/** Models whose EMISIÓN is a year. */
const EMISSION_YEAR_MODELS: ReadonlySet<string> = new Set(['E/F', 'IFE D/E']);

/**
 * AÑO DE REGISTRO is printed on the CURP's row ('GOVM800705MCLMLR01  AÑO DE REGISTRO 2008 02'): when its label was
 * misread and nothing was found by it, the row's last two tokens after the CURP, a year and two digits.
 */
export function registroBesideCurp(page: RawRead | undefined): RegExpExecArray | null {
  for (const line of page?.lines ?? []) {
    const at = line.text.search(/[A-Z0-9]{4}\d{6}[A-Z0-9]{8}/);
    if (at < 0) continue;
    const tokens = line.text
      .slice(at + 18)
      .trim()
      .split(/\s+/);
    if (tokens.length < 2) continue;
    const tail = `${asDigits(tokens[tokens.length - 2]!)} ${asDigits(tokens[tokens.length - 1]!)}`;
    const found = /^((?:19|20)\d{2}) (\d{2})$/.exec(tail);
    if (found) return found;
  }
  return null;
}

/**
 * 'CZARAGOZA' is 'C ZARAGOZA' with its space lost: no Spanish word starts with C and one of these consonants, and the
 * abbreviations that do (CDA, CTO, CNO, CJON) are shorter than five letters.
 */
function withStreetTypeApart(street: string): string {
  return street.replace(/^C(?=[BDFGJKMNÑPQSTVWXYZ][A-ZÑÁÉÍÓÚ]{3})/, 'C ');
}

/** '138 INT 12' (or 'INT. 12', as printed) with digit-shaped letters in the numbers read as digits. */
function normaliseNumber(text: string): string {
  return text
    .split(/\s+/)
    .map((token, i) => (/^INT\.?$/.test(token) || (i === 1 && /^[A-Z]$/.test(token)) ? token : asDigits(token)))
    .join(' ');
}

/**
 * The address lines as printed: each line voted from the crop's readings and the page's (ine-address.ts), or, for the
 * foreign address of a card issued abroad, the page's with what the crop read better; label lines left out.
 */
function printedAddressLines(input: ParseInput, pageAddress: AnchoredValue | undefined, asPrinted: (line: string) => string, abroad: boolean): string[] {
  // The crop starts on the label's row: that line is the label, not the address.
  const cropReads = readings(input, 'address').map((read) => read.lines.filter((l) => !isLabelLine(lineWords(l).join(' '))));
  let lines: string[];
  if (abroad) {
    // A foreign address has no colonia line to vote by: the page's lines, with what the crop read better.
    const cropAddress = (cropReads[0] ?? []).map((l) => lineWords(l).join(' '));
    lines = pageAddress ? withCropAccents(pageAddress.lines, cropAddress) : cropAddress;
  } else {
    // The page's value carries one confidence, the block's, its doubtful words already dropped: it stands for each of
    // its words a little below what it says (the crop's words carry their own).
    const pageConfidence = (pageAddress?.confidence ?? 0) * 100 * PAGE_LINE_CONFIDENCE_SHARE;
    const pageWords = (pageAddress?.lines ?? []).map((l) => l.split(/\s+/).map((text) => ({ text, confidence: pageConfidence })));
    lines = votedAddressLines([...cropReads.map((read) => read.map((l) => l.words)), ...(pageWords.length > 0 ? [pageWords] : [])]);
  }
  return lines
    .map(asPrinted)
    .map((l) => l.toUpperCase())
    .filter((l) => l.trim() && !l.trim().split(/\s+/).every(isLabelWord));
}

/**
 * The registration year alone when nothing follows it: a card running past the photo's edge cut its two-digit number
 * ('AÑO DE REGISTRO 2025' and the edge), which stays empty for the person to type. A year after today is a misread.
 */
export function registroYearAtEdge(text: string, today: Date): RegExpExecArray | null {
  const found = /(?<!\d)((?:19|20)\d{2})$/.exec(asDigits(text).trim());
  return found && Number(found[1]) <= today.getUTCFullYear() ? found : null;
}

/**
 * AÑO DE REGISTRO: the year and its number where the field was read, else at the end of the CURP's row (its label
 * misread), else the year alone at the photo's edge. `firstRead` tries the field's readings in order.
 */
function registroFrom(firstRead: (read: (text: string) => RegExpExecArray | null) => RegExpExecArray | '', input: ParseInput): RegExpExecArray | null {
  return firstRead((t) => /(?<!\d)((?:19|20)\d{2})\s*(\d{2})(?!\d)/.exec(asDigits(t))) || registroBesideCurp(input.page) || firstRead((t) => registroYearAtEdge(t, input.today)) || null;
}

/** A birth date of this century or the last, not after today: a year read `5203` is a misread, not a birth. */
function bornBy(date: DateParts | null, today: Date): DateParts | null {
  return date && date.year >= 1900 && Date.UTC(date.year, date.month - 1, date.day) <= today.getTime() ? date : null;
}

/** See printedAddressLines: ties between a page line and a crop line of the same mean confidence go to the crop. */
const PAGE_LINE_CONFIDENCE_SHARE = 0.95;

/** The page read's words of 18 letters and digits (a clave de elector's or a CURP's length). */
function eighteenCharacterWords(page: RawRead | undefined): string[] {
  return (page?.lines ?? []).flatMap((line) => line.words.map((w) => w.text.trim())).filter((t) => /^[A-Z0-9]{18}$/.test(t));
}

/**
 * The name lines to return, checked against a sound CURP (null: none was read): of the readings (the usual choice
 * first), the one whose letters the CURP confirms, each line then voted among the `versions` the readings give of it
 * (namesVotedByLine), with the Ñ as the codes spell it and any line it contradicts on
 * every letter left empty; none when they contradict it (two initials) or a line was lost. Two lines are a surname
 * and the given names only for a holder without a second surname (the CURP spells X for it): otherwise which line was
 * lost is not known ('MUNOZ' / 'ERO', the end of ROMERO).
 */
function namesCheckedByCodes(
  candidates: string[][],
  versions: readonly NameReading[],
  polished: (lines: readonly string[]) => string[],
  curp: string | null,
  clave: string,
): { names: string[]; contradicted: boolean } {
  if (!curp) return { names: polished(candidates[0] ?? []), contradicted: false };
  const confirmed = enyeAsCodesSpell(polished(namesVotedByLine(namesConfirmedByCurp(candidates, curp), versions, curp)), curp, clave);
  const contradicted = contradictsCurp(asNameFields(confirmed), curp);
  const lineLost = confirmed.length === 2 && curp[2] !== 'X';
  return { names: lineLost || contradicted ? [] : withoutContradictedLines(confirmed, curp), contradicted };
}

/** A line of label words only ('DOMICILIO', 'NOMBRE / NAME'), marks aside. */
function isLabelLine(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.length > 0 && words.every(isLabelWord);
}

/** A value read by its label, as a one-line read (so the crop readings can follow it in the same list). */
function asRead(text: string | undefined, confidence = 90): RawRead[] {
  if (!text) return [];
  const words = text
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => ({
      text: t,
      confidence,
      box: { x0: 0, y0: 0, x1: 0, y1: 0 },
      symbols: [],
    }));
  return [{ text, lines: [{ text, confidence, box: { x0: 0, y0: 0, x1: 0, y1: 0 }, words }] }];
}

/**
 * Fields the page read settles by itself: their crops are not read on the first pass. Names and address are cut
 * and read again at full size: the page read, made smaller, loses accents the crop keeps (used only when the two
 * agree letter for letter but for the accents).
 */
const PAGE_FIELDS: Partial<Record<AnchoredKey, string>> = { fechaNacimiento: 'fechaNacimiento', vigencia: 'vigencia' };

/**
 * The line without acute accents (or diaereses); Ñ keeps its tilde. The INE and IFE models in circulation print
 * names and addresses in capitals without them (the IFE's own specimen prints `C PITAGORAS`, `GOMEZ VELAZQUEZ`),
 * while the OCR's Spanish word model writes them in by itself (`PITÁGORAS`): on those models an acute read in a
 * value was never printed (docs/decisions.md "The E/F layout from the issuer's specimen").
 */
export function withoutAcutes(line: string): string {
  return line
    .normalize('NFD')
    .replace(/[\u0301\u0308]/g, '')
    .normalize('NFC');
}

/** The same letters, accents aside. */
const sameLetters = (a: string, b: string) => plainForm(a).replace(/Ñ/g, 'N') === plainForm(b).replace(/Ñ/g, 'N');

/**
 * Line by line, the reading that saw more marks when both read the same letters: at this size the LSTM drops an
 * accent or an Ñ's tilde far more often than it invents one, and either read may be the one that dropped it.
 */
export function withCropAccents(page: string[], crop: string[]): string[] {
  if (page.length === 0 || crop.length !== page.length) return page;
  return page.map((line, i) => {
    const other = crop[i]!;
    if (sameLetters(line, other) && markCount(other) > markCount(line)) return other;
    // The page read, made smaller, lost a line's first letters by the photo's edge ('OL CENTRO' for 'COL CENTRO',
    // 'ILIANO ZAPATA' for 'COL EMILIANO ZAPATA'): the crop read the same line whole.
    return lostFirstLetters(line, other) ? withoutTrailingMarks(other) : line;
  });
}

/**
 * Whether `line` is `whole` with up to MAX_LOST_PREFIX letters lost at its start, and what `whole` has before it is
 * printed capitals only ('COL EM', 'AV I'), not the OCR's marks of a border ('yg', '|').
 */
function lostFirstLetters(line: string, whole: string): boolean {
  const read = letterKey(line);
  const full = letterKey(whole);
  const lost = full.length - read.length;
  if (read.length < MIN_KEPT || lost < 1 || lost > MAX_LOST_PREFIX || !full.endsWith(read)) return false;
  let covered = 0;
  for (const word of whole.trim().split(/\s+/)) {
    if (covered >= lost) break;
    if (!/^[A-ZÑÁÉÍÓÚÜ]+[.,]?$/.test(word)) return false;
    covered += letterKey(word).length;
  }
  return true;
}

/** Letters the page read may lose at a line's start for the crop's reading of the line to be taken instead. */
const MAX_LOST_PREFIX = 8;
/** ...as long as it kept this many: a line read as a few letters is no evidence of which line it was. */
const MIN_KEPT = 5;

/** The line without trailing tokens that hold no letter or digit (a border read as ' —'). */
const withoutTrailingMarks = (line: string) => line.replace(/(\s+[^\p{L}\p{N}\s]+)+\s*$/u, '');

/**
 * Each line as the reading of it that saw the most marks, among every reading of the same letters (any line of any
 * reading, the line-by-line one included): the E/F names are packed so close that an Ñ's tilde touches the line
 * above, and most readings drop it.
 */
function withMostMarks(lines: string[], others: ReadonlyArray<{ lines: string[] }>): string[] {
  const candidates = others.flatMap((o) => o.lines);
  return lines.map((line) => candidates.filter((c) => sameLetters(c, line)).reduce((best, c) => (markCount(c) > markCount(best) ? c : best), line));
}

/**
 * The whole card is read at this share of its 2000 px width (labels ~20 px high). 0.55 was measured in issue 20's
 * speed work: ~25 % less CPU in this read, but phone photos lost fields (small labels no longer found), so it stays
 * 0.7 (docs/decisions.md "OCR speed, continued").
 */
const PAGE_SCALE = 0.7;

export const ineFront: DocumentReader = {
  documentType: 'INE',
  side: 'front',
  photo: px(H, 0, 120, 640, 990),
  page: { scale: PAGE_SCALE },
  // Dark print on a light card: tesseract's inverted second look at doubtful lines (the photo, the guilloche) is
  // skipped, ~6 % of the page read's CPU, the same fields read (docs/decisions.md "OCR speed, continued").
  darkOnLight: true,
  fields: [
    { ...line('names', px(H, 550, 303, 1600, 490)), segmentation: 'block', splitLines: true },
    sexLetter(px(H, 1690, 250, 1800, 318), 'HMX'),
    { ...line('address', px(H, 550, 536, 1950, 694)), segmentation: 'block' },
    code('claveElector', px(H, 862, 718, 1520, 774), ['clave_elector_format_invalid', 'clave_elector_incomplete']),
    code('curp', px(H, 662, 784, 1285, 840), CURP_RETRY),
    short('registro', px(H, 1560, 784, 1800, 840), `${DIGITS} `),
    line('fechaNacimiento', px(H, 922, 850, 1285, 906), { whitelist: `${DIGITS}/` }),
    short('seccion', px(H, 1435, 850, 1600, 906), DIGITS),
    line('vigencia', px(H, 735, 916, 1285, 972), { whitelist: `${DIGITS}- ` }),
    short('emision', px(H, 1435, 916, 1570, 972), DIGITS),
  ],
  locate(page, width, height) {
    const anchored = readFrontByLabels(page, width, height);
    const regions: Record<string, Region> = {};
    for (const [key, region] of Object.entries(anchored.regions)) if (region) regions[key] = region;
    // Fields the page read holds, and fields no label points to (this model does not print them), are not cut.
    const skip = ineFront.fields.map((f) => f.key).filter((key) => !regions[key] || (PAGE_FIELDS[key as AnchoredKey] && anchored.values[key as AnchoredKey]?.text));
    return { regions, skip };
  },
  parse(input): ParsedSide {
    const anchored = input.page ? readFrontByLabels(input.page, input.card.width, input.card.height) : null;
    return parseFront(input, anchored);
  },
};

function parseFront(input: ParseInput, anchored: AnchoredFront | null): ParsedSide {
  const warnings: string[] = [];
  const confidence: Record<string, number> = {};
  const value = (key: AnchoredKey) => anchored?.values[key];
  /** Printed on this model (without a page read, every field of the fixed layout is). */
  const printed = (key: string) => !anchored || anchored.printed.includes(key as AnchoredKey);
  /** The label-anchored value first, then the crops cut where the label said (or, without labels, the layout). */
  const all = (key: string, anchoredKey: AnchoredKey = key as AnchoredKey): RawRead[] => (printed(key) ? [...asRead(value(anchoredKey)?.text), ...readings(input, key)] : []);
  const first = <T>(key: string, read: (text: string) => T | null | '', unreadable = true): T | '' => {
    for (const reading of all(key)) {
      const found = read(readText(reading));
      if (found) {
        confidence[key] = Math.max(0.3, value(key as AnchoredKey)?.confidence ?? readConfidence(reading) / 100);
        return found;
      }
    }
    if (unreadable && printed(key)) warnings.push(`${key}_unreadable`);
    return '';
  };
  const pageReading = pageNameReading(value('names'));
  const cropReadings = nameReadings(input);
  const cropNames = nameLines(cropReadings);
  // The models in circulation print values without acute accents: one read there is the OCR's own (see withoutAcutes).
  const asPrinted = (line: string) => (anchored && anchored.model !== 'sintético' ? withoutAcutes(line) : line);
  const chosenNames = cropNames.length > pageReading.lines.length ? cropNames : withCropAccents(pageReading.lines, cropNames);
  const polished = (lines: readonly string[]) => withMostMarks([...lines], cropReadings).map(asPrinted);
  const namesAsRead = asNameFields(polished(chosenNames));
  const birth = first('fechaNacimiento', (t) => bornBy(findDate(t), input.today)) || null;
  const fechaNacimiento = birth ? normaliseOcrBirthDate(dateText(birth), input.today) : '';
  let sexo = first('sexo', (t) => /^\s*([HM])\s*$/.exec(t)?.[1] ?? /[HM]/.exec(t)?.[0] ?? null, false) as 'H' | 'M' | '';
  // Last, any word of the page with the clave's length: its label misread ('ave NXURURO1062006M382'), the layout
  // cut the CURP's row for it; only a reading the clave's shape and the other fields agree with wins from there.
  const claveReads = [...all('claveElector').map(readText), ...(printed('claveElector') ? eighteenCharacterWords(input.page) : [])];
  const claveFor = (sex: 'H' | 'M' | '', names: NameFields) =>
    repairClaveFrom(claveReads, {
      birthDate: birth,
      sex: sex || null,
      nameLetters: claveNameLetters(names),
    });
  // The clave's birth-state digits and surname letters do not depend on the sex letter.
  const claveUnsexed = claveFor('', namesAsRead).value;
  const curp = repairCurpFrom(all('curp').map(readText), {
    birthDate: birth,
    sex: sexo || null,
    nameLetters: curpNameLetters(namesAsRead),
    birthState: claveBirthState(claveUnsexed),
    clave: claveUnsexed,
  });
  // The CURP carries the sex too, under its check digit: a sound CURP settles an unread or misread letter.
  const curpSound = isCurpFormat(curp.value) && isCurpCheckDigitValid(curp.value);
  if (curpSound && /[HM]/.test(curp.value[10] ?? '')) sexo = curp.value[10] as 'H' | 'M';
  const { names, contradicted: namesContradicted } = namesCheckedByCodes(
    [chosenNames, pageReading.lines, ...cropReadings.map((r) => r.lines)],
    [pageReading, ...cropReadings],
    polished,
    curpSound ? curp.value : null,
    claveUnsexed,
  );
  if (namesContradicted) warnings.push('names_curp_mismatch');
  if (names.length < 3 || names.some((line) => !line)) warnings.push('names_unreadable');
  const names3 = asNameFields(names);
  const { apellidoPaterno, apellidoMaterno, nombres } = names3;
  const clave = claveFor(sexo, names3);
  if (!sexo) warnings.push('sexo_unreadable');
  warnings.push(...curp.warnings, ...clave.warnings);
  const registro = registroFrom((read) => first('registro', read, false), input);
  if (!registro && printed('registro')) warnings.push('registro_unreadable');
  const years = first('vigencia', (t) => asDigits(t).match(/(?:19|20)\d{2}/g)) || [];
  // A credential issued abroad prints a foreign address: it has no colonia or postal code of the Mexican kind,
  // so the address fields stay empty for the person to type and the printed lines go with the extras.
  const abroad = anchored?.model === 'desde el extranjero';
  const printedAddress = printedAddressLines(input, value('address'), asPrinted, abroad);
  const address = abroad ? { calle: '', numero: '', colonia: '', cp: '', municipio: '', estado: '' } : parseIneAddress(printedAddress);
  const curpValue = ocrCurpOrEmpty(curp.value);
  const nameConfidence = value('names')?.confidence ?? (names.length > 0 ? 0.5 : 0);
  Object.assign(confidence, {
    nombreCompleto: names.length >= 2 ? nameConfidence : 0,
    nombres: nombres ? nameConfidence : 0,
    apellidoPaterno: apellidoPaterno ? nameConfidence : 0,
    apellidoMaterno: apellidoMaterno ? nameConfidence : 0,
    curp: curpValue ? (curpSound ? 0.95 : 0.5) : 0,
    claveElector: clave.value ? (clave.warnings.length === 0 ? 0.9 : 0.5) : 0,
  });
  const emisionText = first('emision', (t) => emissionPrinted(t, anchored?.model));
  const extra: Record<string, string> = {};
  if (years.length > 1) extra.vigenciaImpresa = `${years[0]} - ${years[years.length - 1]}`;
  if (anchored) {
    extra.modeloIne = anchored.model;
    if (abroad && printedAddress.length > 0) extra.domicilioImpreso = printedAddress.map((l) => cleanWords(l, { keepPunctuation: true })).join('\n');
    const lugar = value('lugarNacimiento')
      ?.lines.map((l) => cleanWords(asPrinted(l), { keepPunctuation: true }))
      .join(' ');
    if (lugar) extra.lugarNacimiento = lugar;
    for (const key of ['estado', 'municipio', 'localidad'] as const) {
      const text = value(key)?.text;
      if (text) extra[`${key}Clave`] = asDigits(text).replace(/\D/g, '');
    }
  }
  const ocrData = {
    ...nameFields(nombres, apellidoPaterno, apellidoMaterno),
    fechaNacimiento,
    sexo,
    curp: curpValue,
    // Fewer than its 18 characters, or out of shape, is no clave: the person types it.
    claveElector: clave.warnings.some((w) => w === 'clave_elector_incomplete' || w === 'clave_elector_format_invalid') ? '' : clave.value,
    anioRegistro: registro ? registro[1]! : '',
    numeroRegistro: registro?.[2] ?? '',
    seccion: first('seccion', (t) => findDigits(t, 4)),
    emision: emisionText,
    vigencia: validityYear(years, anchored?.model, warnings, emisionText),
    ...address,
    ...documentFlags('INE'),
  };
  for (const [key, v] of Object.entries(ocrData)) {
    if (typeof v !== 'string') continue;
    if (!v) confidence[key] = 0;
    else confidence[key] ??= Math.min(1, nameConfidence || 0.5);
  }
  return { ocrData, extra, warnings, confidence };
}
