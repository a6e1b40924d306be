import { describe, it, expect } from 'vitest';
import { isIneValidityValid, isPassportValidityValid, storedValidity } from './validity.js';

const mid2025 = new Date(2025, 5, 15, 12);

describe('isIneValidityValid', () => {
  it('accepts the current and later years', () => {
    expect(isIneValidityValid('2025', mid2025)).toBe(true);
    expect(isIneValidityValid('2026', mid2025)).toBe(true);
    expect(isIneValidityValid('2099', mid2025)).toBe(true);
    expect(isIneValidityValid(' 2025 ', mid2025)).toBe(true);
  });

  it('rejects past years', () => {
    expect(isIneValidityValid('2024', mid2025)).toBe(false);
    expect(isIneValidityValid('1999', mid2025)).toBe(false);
  });

  it('at the year boundary: 31 Dec of the year must still be ahead', () => {
    expect(isIneValidityValid('2025', new Date(2025, 0, 1, 0, 0))).toBe(true);
    expect(isIneValidityValid('2025', new Date(2025, 11, 30, 23, 59, 59))).toBe(true);
    expect(isIneValidityValid('2025', new Date(2025, 11, 31, 0, 0))).toBe(false);
    expect(isIneValidityValid('2025', new Date(2025, 11, 31, 18, 0))).toBe(false);
    expect(isIneValidityValid('2026', new Date(2025, 11, 31, 18, 0))).toBe(true);
    expect(isIneValidityValid('2025', new Date(2026, 0, 1, 0, 0))).toBe(false);
    expect(isIneValidityValid('2026', new Date(2026, 0, 1, 0, 0))).toBe(true);
  });

  it('rejects anything but a four-digit year', () => {
    for (const value of ['', '25', '20260', '20a6', '31/12/2030', 'PERMANENTE']) {
      expect(isIneValidityValid(value, mid2025), value).toBe(false);
    }
  });
});

describe('isPassportValidityValid', () => {
  it('accepts PERMANENTE in any case without looking at the date', () => {
    expect(isPassportValidityValid('PERMANENTE', mid2025)).toBe(true);
    expect(isPassportValidityValid(' permanente ', mid2025)).toBe(true);
  });

  it('wants a date strictly after today', () => {
    expect(isPassportValidityValid('16/06/2025', mid2025)).toBe(true);
    expect(isPassportValidityValid('15/06/2025', mid2025)).toBe(false);
    expect(isPassportValidityValid('14/06/2025', mid2025)).toBe(false);
    expect(isPassportValidityValid('01/01/2031', mid2025)).toBe(true);
  });

  it('at the year boundary', () => {
    const newYearsEve = new Date(2025, 11, 31, 22, 0);
    expect(isPassportValidityValid('31/12/2025', newYearsEve)).toBe(false);
    expect(isPassportValidityValid('01/01/2026', newYearsEve)).toBe(true);
    expect(isPassportValidityValid('31/12/2025', new Date(2025, 11, 30, 23, 59))).toBe(true);
  });

  it('rejects malformed and impossible dates', () => {
    for (const value of ['', '1/1/2030', '01/01/30', '31/02/2030', '29/02/2100', '2030', 'PERMANENT']) {
      expect(isPassportValidityValid(value, mid2025), value).toBe(false);
    }
    expect(isPassportValidityValid('29/02/2028', mid2025)).toBe(true);
  });
});

describe('storedValidity', () => {
  it('is 31/12/ plus the year', () => {
    expect(storedValidity('2030')).toBe('31/12/2030');
    expect(storedValidity(2031)).toBe('31/12/2031');
    expect(storedValidity(' 2030 ')).toBe('31/12/2030');
  });
});
