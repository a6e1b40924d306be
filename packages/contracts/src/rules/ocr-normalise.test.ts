import { describe, it, expect } from 'vitest';
import { normaliseOcrBirthDate, ocrCurpOrEmpty, ocrValidityYear } from './ocr-normalise.js';

const mid2025 = new Date(2025, 5, 15, 12);

describe('normaliseOcrBirthDate', () => {
  it('infers the century of DD/MM/YY around the current two-digit year', () => {
    expect(normaliseOcrBirthDate('27/04/24', mid2025)).toBe('27/04/2024'); // below 25
    expect(normaliseOcrBirthDate('27/04/25', mid2025)).toBe('27/04/1925'); // at 25
    expect(normaliseOcrBirthDate('27/04/26', mid2025)).toBe('27/04/1926'); // above 25
    expect(normaliseOcrBirthDate('27/04/00', mid2025)).toBe('27/04/2000');
    expect(normaliseOcrBirthDate('27/04/56', mid2025)).toBe('27/04/1956');
  });

  it('moves the pivot with the injected today', () => {
    const in2030 = new Date(2030, 0, 10, 12);
    expect(normaliseOcrBirthDate('27/04/29', in2030)).toBe('27/04/2029');
    expect(normaliseOcrBirthDate('27/04/30', in2030)).toBe('27/04/1930');
  });

  it('keeps only digits and slashes first', () => {
    expect(normaliseOcrBirthDate('FECHA 27/04/56', mid2025)).toBe('27/04/1956');
    expect(normaliseOcrBirthDate('27 /04/ 56.', mid2025)).toBe('27/04/1956');
  });

  it('pads a single-digit day or month (7 characters)', () => {
    expect(normaliseOcrBirthDate('7/04/56', mid2025)).toBe('07/04/1956');
    expect(normaliseOcrBirthDate('27/4/56', mid2025)).toBe('27/04/1956');
    expect(normaliseOcrBirthDate('7/4/1956', mid2025)).toBe('07/04/1956');
  });

  it('reads 8 digits without slashes as DDMMYYYY', () => {
    expect(normaliseOcrBirthDate('27041956', mid2025)).toBe('27/04/1956');
    expect(normaliseOcrBirthDate('27042010', mid2025)).toBe('27/04/2010');
  });

  it('keeps a 19xx/20xx four-digit year rather than re-inferring it', () => {
    expect(normaliseOcrBirthDate('7/04/1915', mid2025)).toBe('07/04/1915');
    expect(normaliseOcrBirthDate('27/4/2024', mid2025)).toBe('27/04/2024');
    expect(normaliseOcrBirthDate('27/4/1856', mid2025)).toBe('27/04/1956'); // not 19xx/20xx: inferred
  });

  it('empties anything shorter than 6 characters', () => {
    expect(normaliseOcrBirthDate('', mid2025)).toBe('');
    expect(normaliseOcrBirthDate('27/4', mid2025)).toBe('');
    expect(normaliseOcrBirthDate('1/1/9', mid2025)).toBe('');
    expect(normaliseOcrBirthDate('ABCDEFGHIJ', mid2025)).toBe('');
  });

  it('returns 6 and 10+ characters cleaned but not reshaped', () => {
    expect(normaliseOcrBirthDate('270456', mid2025)).toBe('270456');
    expect(normaliseOcrBirthDate('27/04/1956', mid2025)).toBe('27/04/1956');
    expect(normaliseOcrBirthDate(' 27/04/1956 ', mid2025)).toBe('27/04/1956');
    expect(normaliseOcrBirthDate('27/04/19566', mid2025)).toBe('27/04/19566');
  });
});

describe('ocrCurpOrEmpty', () => {
  it('keeps a value longer than 14 characters', () => {
    expect(ocrCurpOrEmpty('HEGG560427MVZRR')).toBe('HEGG560427MVZRR'); // 15
    expect(ocrCurpOrEmpty('HEGG560427MVZRRL04')).toBe('HEGG560427MVZRRL04');
    expect(ocrCurpOrEmpty(' HEGG560427MVZRRL04 ')).toBe('HEGG560427MVZRRL04');
  });

  it('empties 14 characters or fewer', () => {
    expect(ocrCurpOrEmpty('HEGG560427MVZR')).toBe(''); // 14
    expect(ocrCurpOrEmpty('  HEGG560427MVZR  ')).toBe('');
    expect(ocrCurpOrEmpty('')).toBe('');
  });
});

describe('ocrValidityYear', () => {
  it("is '20' plus the last two digits", () => {
    expect(ocrValidityYear('2030')).toBe('2030');
    expect(ocrValidityYear('30')).toBe('2030');
    expect(ocrValidityYear('VIGENCIA 2031')).toBe('2031');
    expect(ocrValidityYear('2021 - 2031')).toBe('2031');
    expect(ocrValidityYear('1999')).toBe('2099');
  });

  it('is empty without two digits', () => {
    expect(ocrValidityYear('')).toBe('');
    expect(ocrValidityYear('7')).toBe('');
    expect(ocrValidityYear('VIGENCIA')).toBe('');
  });
});
