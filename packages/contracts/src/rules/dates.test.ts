import { describe, it, expect } from 'vitest';
import { formatDate, fullYearFromTwoDigits, isAfterToday, isCalendarDate, maskDate, parseFlexibleDate, parseStrictDate } from './dates.js';

const mid2025 = new Date(2025, 5, 15, 12);

describe('isCalendarDate', () => {
  it('knows month lengths', () => {
    expect(isCalendarDate(31, 1, 2023)).toBe(true);
    expect(isCalendarDate(30, 4, 2023)).toBe(true);
    expect(isCalendarDate(31, 4, 2023)).toBe(false);
    expect(isCalendarDate(31, 12, 2023)).toBe(true);
    expect(isCalendarDate(32, 12, 2023)).toBe(false);
  });

  it('applies the Gregorian leap rules', () => {
    expect(isCalendarDate(29, 2, 2024)).toBe(true);
    expect(isCalendarDate(29, 2, 2023)).toBe(false);
    expect(isCalendarDate(29, 2, 2000)).toBe(true);
    expect(isCalendarDate(29, 2, 1900)).toBe(false);
    expect(isCalendarDate(30, 2, 2000)).toBe(false);
  });

  it('rejects zero and out-of-range parts', () => {
    expect(isCalendarDate(0, 1, 2000)).toBe(false);
    expect(isCalendarDate(1, 0, 2000)).toBe(false);
    expect(isCalendarDate(1, 13, 2000)).toBe(false);
    expect(isCalendarDate(1, 1, 0)).toBe(false);
    expect(isCalendarDate(1.5, 1, 2000)).toBe(false);
  });
});

describe('fullYearFromTwoDigits', () => {
  it('puts the current two-digit year and above in 19xx, below in 20xx', () => {
    expect(fullYearFromTwoDigits(24, mid2025)).toBe(2024);
    expect(fullYearFromTwoDigits(25, mid2025)).toBe(1925);
    expect(fullYearFromTwoDigits(26, mid2025)).toBe(1926);
    expect(fullYearFromTwoDigits(0, mid2025)).toBe(2000);
    expect(fullYearFromTwoDigits(99, mid2025)).toBe(1999);
  });

  it('moves with today', () => {
    const in2031 = new Date(2031, 0, 1, 12);
    expect(fullYearFromTwoDigits(30, in2031)).toBe(2030);
    expect(fullYearFromTwoDigits(31, in2031)).toBe(1931);
  });
});

describe('parseStrictDate', () => {
  it('reads DD/MM/YYYY', () => {
    expect(parseStrictDate('31/12/1999')).toEqual({ day: 31, month: 12, year: 1999 });
    expect(parseStrictDate('01/01/2000')).toEqual({ day: 1, month: 1, year: 2000 });
  });

  it('checks the calendar, leap days included', () => {
    expect(parseStrictDate('29/02/2000')).toEqual({ day: 29, month: 2, year: 2000 });
    expect(parseStrictDate('29/02/1900')).toBeNull();
    expect(parseStrictDate('31/04/2020')).toBeNull();
    expect(parseStrictDate('00/01/2020')).toBeNull();
    expect(parseStrictDate('12/13/2020')).toBeNull();
  });

  it('refuses every other shape', () => {
    for (const value of ['1/1/2000', '01/01/00', '01-01-2000', '01 01 2000', ' 01/01/2000', '01/01/2000 ', '01012000', '2000/01/01', '01/01/20000', 'aa/bb/cccc', '']) {
      expect(parseStrictDate(value), value).toBeNull();
    }
  });
});

describe('parseFlexibleDate', () => {
  it('reads DD/MM/YYYY', () => {
    expect(parseFlexibleDate('15/03/1985', mid2025)).toEqual({ day: 15, month: 3, year: 1985 });
  });

  it('reads DD/MM/YY with the two-digit century rule', () => {
    expect(parseFlexibleDate('15/03/85', mid2025)).toEqual({ day: 15, month: 3, year: 1985 });
    expect(parseFlexibleDate('15/03/24', mid2025)).toEqual({ day: 15, month: 3, year: 2024 });
    expect(parseFlexibleDate('15/03/25', mid2025)).toEqual({ day: 15, month: 3, year: 1925 });
  });

  it('reads a space as a slash, and trims', () => {
    expect(parseFlexibleDate('15 03 1985', mid2025)).toEqual({ day: 15, month: 3, year: 1985 });
    expect(parseFlexibleDate('15/03 85', mid2025)).toEqual({ day: 15, month: 3, year: 1985 });
    expect(parseFlexibleDate(' 15  03  1985 ', mid2025)).toEqual({ day: 15, month: 3, year: 1985 });
  });

  it('checks the calendar after the century is known', () => {
    expect(parseFlexibleDate('29/02/00', mid2025)).toEqual({ day: 29, month: 2, year: 2000 });
    expect(parseFlexibleDate('29/02/1900', mid2025)).toBeNull();
    expect(parseFlexibleDate('31/06/1990', mid2025)).toBeNull();
  });

  it('refuses other shapes', () => {
    for (const value of ['1/3/85', '15/03/985', '15-03-1985', '15031985', '', '15//03/1985']) {
      expect(parseFlexibleDate(value, mid2025), value).toBeNull();
    }
  });
});

describe('formatDate', () => {
  it('pads to DD/MM/YYYY', () => {
    expect(formatDate({ day: 1, month: 2, year: 2003 })).toBe('01/02/2003');
    expect(formatDate({ day: 31, month: 12, year: 1999 })).toBe('31/12/1999');
  });
});

describe('isAfterToday', () => {
  it('is strictly after the current day', () => {
    expect(isAfterToday({ day: 16, month: 6, year: 2025 }, mid2025)).toBe(true);
    expect(isAfterToday({ day: 15, month: 6, year: 2025 }, mid2025)).toBe(false);
    expect(isAfterToday({ day: 14, month: 6, year: 2025 }, mid2025)).toBe(false);
    expect(isAfterToday({ day: 15, month: 6, year: 2025 }, new Date(2025, 5, 14, 23, 59, 59))).toBe(true);
  });

  it('does not map years below 100 to 19xx', () => {
    expect(isAfterToday({ day: 1, month: 1, year: 99 }, mid2025)).toBe(false);
  });
});

describe('maskDate', () => {
  it('inserts the slashes while digits are typed', () => {
    const typed = '15031985';
    const steps = [...typed].map((_, i) => maskDate(typed.slice(0, i + 1)));
    expect(steps).toEqual(['1', '15', '15/0', '15/03', '15/03/1', '15/03/19', '15/03/198', '15/03/1985']);
  });

  it('keeps re-masking its own output stable', () => {
    expect(maskDate('15/0')).toBe('15/0');
    expect(maskDate('15/03/1985')).toBe('15/03/1985');
    expect(maskDate(maskDate('15031985'))).toBe('15/03/1985');
  });

  it('drops anything but digits, slash and space, and stops at 8 digits', () => {
    expect(maskDate('15-03-1985')).toBe('15/03/1985');
    expect(maskDate('ab15.03x1985')).toBe('15/03/1985');
    expect(maskDate('150319851234')).toBe('15/03/1985');
    expect(maskDate('15/03/1985/')).toBe('15/03/1985');
    expect(maskDate('abc')).toBe('');
    expect(maskDate('')).toBe('');
  });

  it('reads a typed slash or space as the end of a part', () => {
    expect(maskDate('15/')).toBe('15/');
    expect(maskDate('15 ')).toBe('15/');
    expect(maskDate('15 03 ')).toBe('15/03/');
    expect(maskDate('15 03 1985')).toBe('15/03/1985');
  });

  it('pads a single-digit day or month closed by a separator', () => {
    expect(maskDate('1/')).toBe('01/');
    expect(maskDate('1 2 1990')).toBe('01/02/1990');
    expect(maskDate('1/2/')).toBe('01/02/');
  });

  it('ignores separators with nothing before them, or repeated', () => {
    expect(maskDate('/')).toBe('');
    expect(maskDate(' ')).toBe('');
    expect(maskDate('15//')).toBe('15/');
    expect(maskDate('15  03')).toBe('15/03');
  });

  it('lets backspace remove a slash', () => {
    expect(maskDate('15')).toBe('15');
    expect(maskDate('15/03')).toBe('15/03');
  });
});
