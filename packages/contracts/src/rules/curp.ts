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
