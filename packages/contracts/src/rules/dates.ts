export interface DateParts {
  day: number;
  month: number;
  year: number;
}

export function isCalendarDate(day: number, month: number, year: number): boolean {
  if (!Number.isInteger(day) || !Number.isInteger(month) || !Number.isInteger(year)) return false;
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(month, year);
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * Two-digit year to four digits, as the spec's OCR birth-date rule does:
 * at or above the current two-digit year means 19xx, else 20xx.
 */
export function fullYearFromTwoDigits(twoDigits: number, today: Date = new Date()): number {
  return twoDigits >= today.getFullYear() % 100 ? 1900 + twoDigits : 2000 + twoDigits;
}

/** Strict DD/MM/YYYY and a real calendar date (no surrounding spaces, no other separator). */
export function parseStrictDate(value: string): DateParts | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!match) return null;
  return toParts(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** DD/MM/YYYY or DD/MM/YY; any run of spaces is read as a slash; YY follows fullYearFromTwoDigits. */
export function parseFlexibleDate(value: string, today: Date = new Date()): DateParts | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4}|\d{2})$/.exec(value.trim().replace(/\s+/g, '/'));
  if (!match) return null;
  const yearText = match[3] ?? '';
  const year = yearText.length === 2 ? fullYearFromTwoDigits(Number(yearText), today) : Number(yearText);
  return toParts(Number(match[1]), Number(match[2]), year);
}

function toParts(day: number, month: number, year: number): DateParts | null {
  return isCalendarDate(day, month, year) ? { day, month, year } : null;
}

export function formatDate({ day, month, year }: DateParts): string {
  return `${pad2(day)}/${pad2(month)}/${String(year).padStart(4, '0')}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** True when the local calendar day of `date` is after `today` (the day itself is not the future). */
export function isAfterToday({ day, month, year }: DateParts, today: Date = new Date()): boolean {
  const midnight = new Date(0);
  midnight.setFullYear(year, month - 1, day); // not new Date(y, m, d): it maps years 0-99 to 19xx
  midnight.setHours(0, 0, 0, 0);
  return midnight.getTime() > today.getTime();
}

/**
 * The ##/##/#### mask while typing. Digits fill day, month and year in turn (a third digit
 * starts the next part); a typed slash or space closes the current part, padding a single
 * digit with 0 ("1/" gives "01/"); anything else is dropped; the year stops at 4 digits.
 */
export function maskDate(value: string): string {
  const parts: string[] = [''];
  for (const char of value) {
    const index = parts.length - 1;
    const current = parts[index] ?? '';
    if (char >= '0' && char <= '9') {
      const full = current.length === (index < 2 ? 2 : 4);
      if (!full) parts[index] = current + char;
      else if (index < 2) parts.push(char);
    } else if ((char === '/' || char === ' ') && index < 2 && current !== '') {
      parts[index] = current.padStart(2, '0');
      parts.push('');
    }
  }
  return parts.join('/');
}
