import { isAfterToday, parseStrictDate } from './dates.js';
import { normaliseUpperTrim } from './normalise.js';

/**
 * Spec §4 INE form: the year is >= the current year and 31 Dec of that year is in the future.
 * Read literally, an ID whose validity year is the current one is rejected on 31 Dec itself.
 */
export function isIneValidityValid(yearText: string, today: Date = new Date()): boolean {
  const text = yearText.trim();
  if (!/^\d{4}$/.test(text)) return false;
  const year = Number(text);
  return year >= today.getFullYear() && isAfterToday({ day: 31, month: 12, year }, today);
}

/** Spec §4 passport form: PERMANENTE skips the check; else a strict DD/MM/YYYY date after today. */
export function isPassportValidityValid(value: string, today: Date = new Date()): boolean {
  const normalised = normaliseUpperTrim(value);
  if (normalised === 'PERMANENTE') return true;
  const date = parseStrictDate(normalised);
  return date !== null && isAfterToday(date, today);
}

/** Spec §3: validity is stored as 31/12/20YY. */
export function storedValidity(year: string | number): string {
  return `31/12/${String(year).trim()}`;
}
