import { isCalendarDate, type DateParts } from './dates.js';

/** RENAPO state codes; NE is "nacido en el extranjero" (born abroad). */
export const curpStateCodes = [
  'AS',
  'BC',
  'BS',
  'CC',
  'CL',
  'CM',
  'CS',
  'CH',
  'DF',
  'DG',
  'GT',
  'GR',
  'HG',
  'JC',
  'MC',
  'MN',
  'MS',
  'NT',
  'NL',
  'OC',
  'PL',
  'QT',
  'QR',
  'SP',
  'SL',
  'SR',
  'TC',
  'TS',
  'TL',
  'VZ',
  'YN',
  'ZS',
  'NE',
] as const;
export type CurpState = (typeof curpStateCodes)[number];

// X is accepted besides H and M: RENAPO has issued it as the non-binary sex marker since 2022.
export const curpSexCodes = ['H', 'M', 'X'] as const;
export type CurpSex = (typeof curpSexCodes)[number];

const curpPattern = new RegExp('^[A-Z][AEIOUX][A-Z]{2}\\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])[HMX]' + `(${curpStateCodes.join('|')})[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z]\\d$`);

/**
 * The spec's CURP pattern on an already normalised (trimmed, uppercase) value, plus a real
 * birth date: the pattern alone lets 310299 through, the century from the 17th character settles 29 Feb.
 */
export function isCurpFormat(curp: string): boolean {
  return curpPattern.test(curp) && curpBirthDate(curp) !== null;
}

const checkDigitDictionary = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** RENAPO check digit of the first 17 characters; null when not 17 dictionary characters. */
export function curpCheckDigit(first17: string): number | null {
  const chars = [...first17];
  if (chars.length !== 17) return null;
  let sum = 0;
  for (const [index, char] of chars.entries()) {
    const value = checkDigitDictionary.indexOf(char);
    if (value < 0) return null;
    sum += value * (18 - index);
  }
  return (10 - (sum % 10)) % 10;
}

export function isCurpCheckDigitValid(curp: string): boolean {
  if (curp.length !== 18) return false;
  const digit = curpCheckDigit(curp.slice(0, 17));
  return digit !== null && String(digit) === curp[17];
}

/** Birth date from positions 5-10 (YYMMDD); the 17th character gives the century: digit 19xx, letter 20xx. */
export function curpBirthDate(curp: string): DateParts | null {
  const match = /^.{4}(\d{2})(\d{2})(\d{2}).{6}([0-9A-Z])/.exec(curp);
  if (!match) return null;
  const century = /\d/.test(match[4] ?? '') ? 1900 : 2000;
  const year = century + Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return isCalendarDate(day, month, year) ? { year, month, day } : null;
}

export function curpSex(curp: string): CurpSex | null {
  const sex = curp[10];
  return curpSexCodes.find((code) => code === sex) ?? null;
}

export function curpState(curp: string): CurpState | null {
  const state = curp.slice(11, 13);
  return curpStateCodes.find((code) => code === state) ?? null;
}

// ---------------------------------------------------------------------------------------------------
// The letters the names give (RENAPO's instructivo): one rule for the reader's cross-checks and the generator
// ---------------------------------------------------------------------------------------------------

/** Particles dropped from compound names before taking letters (unless nothing else remains). */
export const curpNameParticles = new Set(['DA', 'DAS', 'DE', 'DEL', 'DER', 'DI', 'DIE', 'DD', 'EL', 'LA', 'LOS', 'LAS', 'LE', 'LES', 'MAC', 'MC', 'VAN', 'VON', 'Y']);
/** First given names skipped when the person has another one (MARÍA, JOSÉ and their abbreviations). */
export const curpSkippedGivenNames = new Set(['MARIA', 'MA', 'MA.', 'M', 'M.', 'JOSE', 'J', 'J.']);
/** Words the first four letters may not form; their second letter becomes X. */
export const curpInconvenientWords = new Set([
  'BACA',
  'BAKA',
  'BUEI',
  'BUEY',
  'CACA',
  'CACO',
  'CAGA',
  'CAGO',
  'CAKA',
  'CAKO',
  'COGE',
  'COGI',
  'COJA',
  'COJE',
  'COJI',
  'COJO',
  'COLA',
  'CULO',
  'FALO',
  'FETO',
  'GETA',
  'GUEI',
  'GUEY',
  'JETA',
  'JOTO',
  'KACA',
  'KACO',
  'KAGA',
  'KAGO',
  'KAKA',
  'KAKO',
  'KOGE',
  'KOGI',
  'KOJA',
  'KOJE',
  'KOJI',
  'KOJO',
  'KOLA',
  'KULO',
  'LILO',
  'LOCA',
  'LOCO',
  'LOKA',
  'LOKO',
  'MAME',
  'MAMO',
  'MEAR',
  'MEAS',
  'MEON',
  'MIAR',
  'MION',
  'MOCO',
  'MOKO',
  'MULA',
  'MULO',
  'NACA',
  'NACO',
  'PEDA',
  'PEDO',
  'PENE',
  'PIPI',
  'PITO',
  'POPO',
  'PUTA',
  'PUTO',
  'QULO',
  'RATA',
  'ROBA',
  'ROBE',
  'ROBO',
  'RUIN',
  'SENO',
  'TETA',
  'VACA',
  'VAGA',
  'VAGO',
  'VAKA',
  'VUEI',
  'VUEY',
  'WUEI',
  'WUEY',
]);

/** Words of a name: upper case, accents stripped (Ñ kept), particles removed unless nothing else remains. */
export function curpNameWords(name: string): string[] {
  const plain = name
    .toUpperCase()
    .replace(/Ñ/g, '\u0000')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u0000/g, 'Ñ');
  const all = plain
    .replace(/[^A-ZÑ. ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const kept = all.filter((w) => !curpNameParticles.has(w));
  return kept.length > 0 ? kept : all;
}

/** The given-name word the CURP uses: MARÍA / JOSÉ (and abbreviations) are skipped when another name follows. */
export function curpGivenName(nombres: string): string {
  const words = curpNameWords(nombres);
  if (words.length > 1 && curpSkippedGivenNames.has(words[0]!)) return words[1]!;
  return words[0] ?? '';
}

/** Ñ counts as X in the CURP and the clave de elector. */
export const enyeToX = (c: string): string => (c === 'Ñ' ? 'X' : c);
/** The first inner vowel (or consonant) of a name word, X when it has none. */
export const firstInner = (word: string, vowel: boolean): string => {
  for (const c of word.slice(1)) if ('AEIOU'.includes(c) === vowel && /[A-ZÑ]/.test(c)) return enyeToX(c);
  return 'X';
};

/**
 * CURP positions 1-4 (initials, after the inconvenient-word rule) and 14-16 (inner consonants) from the names; a
 * missing word counts as X.
 */
export function curpNameParts(names: { apellidoPaterno: string; apellidoMaterno: string; nombres: string }): { initials: string; consonants: string } {
  const paterno = curpNameWords(names.apellidoPaterno)[0] ?? 'X';
  const materno = curpNameWords(names.apellidoMaterno)[0];
  const given = curpGivenName(names.nombres) || 'X';
  let initials = enyeToX(paterno[0]!) + firstInner(paterno, true) + (materno ? enyeToX(materno[0]!) : 'X') + enyeToX(given[0]!);
  if (curpInconvenientWords.has(initials)) initials = `${initials[0]}X${initials.slice(2)}`;
  const consonants = firstInner(paterno, false) + (materno ? firstInner(materno, false) : 'X') + firstInner(given, false);
  return { initials, consonants };
}
