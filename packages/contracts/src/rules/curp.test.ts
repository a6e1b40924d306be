import { describe, it, expect } from 'vitest';
import { curpBirthDate, curpCheckDigit, curpGivenName, curpNameParts, curpNameWords, curpSex, curpState, curpStateCodes, isCurpCheckDigitValid, isCurpFormat } from './curp.js';

// Known CURPs whose check digit was worked out by hand through RENAPO's algorithm
// (dictionary 0-9 = 0-9, A = 10 ... N = 23, Ñ = 24, O = 25 ... Z = 36; weights 18 down to 2;
// digit = (10 - sum % 10) % 10):
// - HEGG560427MVZRRL04: the Wikipedia example (woman, Veracruz, 1956); weighted sum 2246 -> 4.
// - LOOA531113HTCPBN07: a published CURP (man, Tabasco, 1953); weighted sum 2183 -> 7.
// - MAHJ280603MSPRRV09: a common sample (woman, San Luis Potosí, 1928); sum 2231 -> 9.
// - XEXX010101HNEXXXA4: the generic CURP for foreigners; the letter homoclave 'A' means 2001
//   and carries weight 2 into the sum (2746 -> 4).
const valid = ['HEGG560427MVZRRL04', 'LOOA531113HTCPBN07', 'MAHJ280603MSPRRV09', 'XEXX010101HNEXXXA4'];

describe('curpCheckDigit', () => {
  it('computes the digit of the known CURPs', () => {
    expect(curpCheckDigit('HEGG560427MVZRRL0')).toBe(4);
    expect(curpCheckDigit('LOOA531113HTCPBN0')).toBe(7);
    expect(curpCheckDigit('MAHJ280603MSPRRV0')).toBe(9);
    expect(curpCheckDigit('XEXX010101HNEXXXA')).toBe(4);
  });

  it('uses weights 18 down to 2 and maps a zero remainder to 0', () => {
    expect(curpCheckDigit('00000000000000000')).toBe(0); // sum 0
    expect(curpCheckDigit('10000000000000000')).toBe(2); // 1 * 18 = 18
    expect(curpCheckDigit('00000000000000001')).toBe(8); // 1 * 2 = 2
    expect(curpCheckDigit('A0000000000000000')).toBe(0); // 10 * 18 = 180
  });

  it('places Ñ between N and O in the dictionary', () => {
    expect(curpCheckDigit('N0000000000000000')).toBe(6); // 23 * 18 = 414
    expect(curpCheckDigit('Ñ0000000000000000')).toBe(8); // 24 * 18 = 432
    expect(curpCheckDigit('O0000000000000000')).toBe(0); // 25 * 18 = 450
    expect(curpCheckDigit('Z0000000000000000')).toBe(2); // 36 * 18 = 648
  });

  it('is null unless given 17 dictionary characters', () => {
    expect(curpCheckDigit('HEGG560427MVZRRL')).toBeNull();
    expect(curpCheckDigit('HEGG560427MVZRRL04')).toBeNull();
    expect(curpCheckDigit('hegg560427mvzrrl0')).toBeNull();
    expect(curpCheckDigit('HEGG560427MVZRR-0')).toBeNull();
    expect(curpCheckDigit('')).toBeNull();
  });
});

describe('isCurpCheckDigitValid', () => {
  it('accepts the known CURPs', () => {
    for (const curp of valid) expect(isCurpCheckDigitValid(curp), curp).toBe(true);
  });

  it('rejects a wrong last digit or a changed character', () => {
    expect(isCurpCheckDigitValid('HEGG560427MVZRRL05')).toBe(false);
    expect(isCurpCheckDigitValid('HEGG560427MVZRRL14')).toBe(false);
    expect(isCurpCheckDigitValid('HEGG560428MVZRRL04')).toBe(false);
    // 'GODE561231HDFRRN09' is often quoted as an example, but its sum is 1990, so the digit is 0.
    expect(isCurpCheckDigitValid('GODE561231HDFRRN09')).toBe(false);
    expect(isCurpCheckDigitValid('GODE561231HDFRRN00')).toBe(true);
  });

  it('rejects other lengths and a letter in the last place', () => {
    expect(isCurpCheckDigitValid('HEGG560427MVZRRL0')).toBe(false);
    expect(isCurpCheckDigitValid('HEGG560427MVZRRL044')).toBe(false);
    expect(isCurpCheckDigitValid('HEGG560427MVZRRL0A')).toBe(false);
    expect(isCurpCheckDigitValid('')).toBe(false);
  });
});

describe('isCurpFormat', () => {
  it('accepts the known CURPs', () => {
    for (const curp of valid) expect(isCurpFormat(curp), curp).toBe(true);
  });

  it('does not check the check digit', () => {
    expect(isCurpFormat('HEGG560427MVZRRL05')).toBe(true);
  });

  it('accepts every state code, and only those', () => {
    for (const state of curpStateCodes) expect(isCurpFormat(`HEGG560427M${state}RRL04`), state).toBe(true);
    for (const state of ['XX', 'DX', 'MX', 'EM', 'CX']) expect(isCurpFormat(`HEGG560427M${state}RRL04`), state).toBe(false);
  });

  it('accepts sex H, M and the non-binary X', () => {
    expect(isCurpFormat('HEGG560427HVZRRL04')).toBe(true);
    expect(isCurpFormat('HEGG560427MVZRRL04')).toBe(true);
    expect(isCurpFormat('HEGG560427XVZRRL04')).toBe(true);
    expect(isCurpFormat('HEGG560427FVZRRL04')).toBe(false);
  });

  it('wants a vowel or X second', () => {
    expect(isCurpFormat('HXGG560427MVZRRL04')).toBe(true);
    expect(isCurpFormat('HBGG560427MVZRRL04')).toBe(false);
  });

  it('wants letters in the first four places and consonants in 14-16', () => {
    expect(isCurpFormat('1EGG560427MVZRRL04')).toBe(false);
    expect(isCurpFormat('HEG1560427MVZRRL04')).toBe(false);
    expect(isCurpFormat('HEGG560427MVZARL04')).toBe(false);
    expect(isCurpFormat('HEGG560427MVZRRE04')).toBe(false);
    expect(isCurpFormat('HEGG560427MVZXXX04')).toBe(true);
  });

  it('wants an alphanumeric 17th and a digit 18th', () => {
    expect(isCurpFormat('HEGG560427MVZRRLA4')).toBe(true);
    expect(isCurpFormat('HEGG560427MVZRRL-4')).toBe(false);
    expect(isCurpFormat('HEGG560427MVZRRL0A')).toBe(false);
  });

  it('wants a real birth date, the century coming from the 17th character', () => {
    expect(isCurpFormat('HEGG561327MVZRRL04')).toBe(false); // month 13
    expect(isCurpFormat('HEGG560027MVZRRL04')).toBe(false); // month 00
    expect(isCurpFormat('HEGG560400MVZRRL04')).toBe(false); // day 00
    expect(isCurpFormat('HEGG560432MVZRRL04')).toBe(false); // day 32
    expect(isCurpFormat('HEGG560431MVZRRL04')).toBe(false); // 31 April
    expect(isCurpFormat('HEGG000229MVZRRLA4')).toBe(true); // 29/02/2000
    expect(isCurpFormat('HEGG000229MVZRRL04')).toBe(false); // 29/02/1900
  });

  it('is exactly 18 uppercase characters', () => {
    expect(isCurpFormat('HEGG560427MVZRRL0')).toBe(false);
    expect(isCurpFormat('HEGG560427MVZRRL044')).toBe(false);
    expect(isCurpFormat('hegg560427mvzrrl04')).toBe(false);
    expect(isCurpFormat(' HEGG560427MVZRRL04')).toBe(false);
  });
});

describe('curpBirthDate', () => {
  it('reads 19xx when the 17th character is a digit', () => {
    expect(curpBirthDate('HEGG560427MVZRRL04')).toEqual({ year: 1956, month: 4, day: 27 });
    expect(curpBirthDate('MAHJ280603MSPRRV09')).toEqual({ year: 1928, month: 6, day: 3 });
  });

  it('reads 20xx when the 17th character is a letter', () => {
    expect(curpBirthDate('XEXX010101HNEXXXA4')).toEqual({ year: 2001, month: 1, day: 1 });
    expect(curpBirthDate('HEGG000229MVZRRLA4')).toEqual({ year: 2000, month: 2, day: 29 });
  });

  it('is null without a real date or a 17th character', () => {
    expect(curpBirthDate('HEGG000229MVZRRL04')).toBeNull();
    expect(curpBirthDate('HEGG561327MVZRRL04')).toBeNull();
    expect(curpBirthDate('HEGG56AB27MVZRRL04')).toBeNull();
    expect(curpBirthDate('HEGG560427MVZRRL')).toBeNull();
    expect(curpBirthDate('')).toBeNull();
  });
});

describe('curpSex', () => {
  it('reads the 11th character', () => {
    expect(curpSex('LOOA531113HTCPBN07')).toBe('H');
    expect(curpSex('HEGG560427MVZRRL04')).toBe('M');
    expect(curpSex('HEGG560427XVZRRL04')).toBe('X');
    expect(curpSex('HEGG560427FVZRRL04')).toBeNull();
    expect(curpSex('HEGG')).toBeNull();
  });
});

describe('curpState', () => {
  it('reads the 12th and 13th characters', () => {
    expect(curpState('LOOA531113HTCPBN07')).toBe('TC');
    expect(curpState('HEGG560427MVZRRL04')).toBe('VZ');
    expect(curpState('XEXX010101HNEXXXA4')).toBe('NE');
    expect(curpState('HEGG560427MXXRRL04')).toBeNull();
    expect(curpState('HEGG')).toBeNull();
  });

  it('lists the 32 states plus NE', () => {
    expect(curpStateCodes).toHaveLength(33);
    expect(new Set(curpStateCodes).size).toBe(33);
  });
});

describe('the letters the names give (curpNameParts)', () => {
  it('drops particles, skips MARÍA / JOSÉ before another name, counts Ñ as X and applies the inconvenient-word rule', () => {
    expect(curpNameParts({ apellidoPaterno: 'DE LA CRUZ', apellidoMaterno: 'PEÑA', nombres: 'MARÍA JOSÉ' })).toEqual({ initials: 'CUPJ', consonants: 'RXS' });
    expect(curpNameParts({ apellidoPaterno: 'ÑANDÚ', apellidoMaterno: '', nombres: 'ÁNGEL' })).toEqual({ initials: 'XAXA', consonants: 'NXN' });
    expect(curpNameParts({ apellidoPaterno: 'PUENTE', apellidoMaterno: 'TORRES', nombres: 'OSCAR' }).initials).toBe('PXTO');
    expect(curpGivenName('MARÍA')).toBe('MARIA');
    expect(curpNameWords('del Valle')).toEqual(['VALLE']);
  });
});
