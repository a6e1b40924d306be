import { describe, expect, it } from 'vitest';
import { checkDigit } from '../../../src/engines/ocr/mrz-formats.js';
import { checkMrz, correctByCheckDigits } from '../../../src/engines/ocr/mrz-parse.js';

// ICAO 9303 part 4's specimen passport (TD3), as printed: its personal number ZE184226B starts with a Z.
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const INE = ['IDMEX5338842371<<3447342242468', '0109121M3112319MEX<<<<<<<<<<<3', 'DIAZ<YANEZ<<HECTOR<<<<<<<<<<<<'];

const at = (line: string, column: number, char: string): string => line.slice(0, column) + char + line.slice(column + 1);

/** A TD1 zone (a French-style card) whose document number and optional data carry letters, every digit computed. */
function td1(number: string, optional: string): string[] {
  const l1 = `IDUTO${number}${checkDigit(number)}${optional.padEnd(15, '<')}`;
  const l2body = `740812${checkDigit('740812')}F310228${checkDigit('310228')}UTO<<<<<<<<<<<`;
  const composite = l1.slice(5, 30) + l2body.slice(0, 7) + l2body.slice(8, 15) + l2body.slice(18, 29);
  return [l1, `${l2body}${checkDigit(composite)}`, 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
}

describe('correctByCheckDigits', () => {
  it('the specimens are valid as printed, and a valid zone is left alone', () => {
    expect(checkMrz(TD3).valid).toBe(true);
    expect(checkMrz(INE).valid).toBe(true);
    expect(correctByCheckDigits('TD3', TD3)).toBeNull();
  });

  it('gives back the Z of the personal number read as 2 when another reading shows it, and says so', () => {
    const read = [TD3[0]!, at(TD3[1]!, 28, '2')];
    expect(checkMrz(read).valid).toBe(false);
    // Z→2 at weight 7 shifts the personal number's sum and the composite's by 231 ≡ 1; so does B→8 three places
    // on (3 × 7 = 21): the check digits alone allow 'ZE184226B' and '2E1B4226B', and no guess is made.
    expect(correctByCheckDigits('TD3', read)).toBeNull();
    // The LSTM engine's reading of the same zone (an extra 7 in it, so no line of it fits) shows ZE184226B.
    const lstm = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F31041507ZE184226B<<<<<16'];
    const fixed = correctByCheckDigits('TD3', read, lstm);
    expect(fixed?.lines).toEqual(TD3);
    expect(fixed?.corrections).toEqual([{ line: 1, column: 28, read: '2', as: 'Z' }]);
    expect(checkMrz(fixed!.lines).valid).toBe(true);
  });

  it('takes a correction the check digits settle alone without a witness', () => {
    const printed = td1('D23145890', 'X2<<');
    expect(checkMrz(printed).valid).toBe(true);
    const read = [at(printed[0]!, 15, 'K'), printed[1]!, printed[2]!];
    // K is no confusion of X: nothing to correct.
    expect(correctByCheckDigits('TD1', read)).toBeNull();
  });

  it('corrects letters and digits both ways in an alphanumeric document number (O read as 0, 1 read as I)', () => {
    const printed = td1('XO1234567', 'B5<<');
    expect(checkMrz(printed).valid).toBe(true);
    const read = [at(at(printed[0]!, 6, '0'), 7, 'I'), printed[1]!, printed[2]!];
    // No other reading shows the corrected number: check digits alone do not correct.
    expect(correctByCheckDigits('TD1', read)).toBeNull();
    const fixed = correctByCheckDigits('TD1', read, ['IDUTOXO12345671B5<<']);
    expect(fixed?.lines).toEqual(printed);
    expect(fixed?.corrections).toEqual([
      { line: 0, column: 6, read: '0', as: 'O' },
      { line: 0, column: 7, read: 'I', as: '1' },
    ]);
  });

  it('corrects the TD1 optional data, covered by the composite digit only', () => {
    const printed = td1('XO1234567', 'B5<<');
    const read = [at(printed[0]!, 15, '8'), printed[1]!, printed[2]!];
    expect(correctByCheckDigits('TD1', read, ['B5<<<<'])?.lines).toEqual(printed);
  });

  it('does not compensate a misreading outside the list by another swap (a D read as 0, an 8 turned B)', () => {
    // Generated TD1 at 270°: the legacy engine read D23145890 as 023145890; D→0 and 8→B both shift the document
    // number's and the composite's sums by 1, so 023145B90 verifies every check digit, and is wrong.
    const printed = td1('D23145890', '');
    const read = [at(printed[0]!, 5, '0'), printed[1]!, printed[2]!];
    expect(checkMrz([at(read[0]!, 11, 'B'), read[1]!, read[2]!]).valid).toBe(true);
    expect(correctByCheckDigits('TD1', read)).toBeNull();
    expect(correctByCheckDigits('TD1', read, ['I<UTOD231458907<<<', '0231458907'])).toBeNull();
  });

  it('refuses a correction that leaves another check digit failing', () => {
    // The personal number's Z read as 2 and a birth-date digit misread: swapping the 2 back fixes the personal
    // number's digit but not the birth date's nor the composite, so nothing is corrected.
    const read = [TD3[0]!, at(at(TD3[1]!, 28, '2'), 15, '5')];
    expect(correctByCheckDigits('TD3', read)).toBeNull();
  });

  it('never changes a numeric field, a check digit or a name', () => {
    // A birth date 740812 read 748812 (8 for 0 is no letter/digit confusion here: both digits) stays failing.
    expect(correctByCheckDigits('TD3', [TD3[0]!, at(TD3[1]!, 15, '8')])).toBeNull();
    // An INE's line 1 is numeric by its layout: a wrong digit there is not "corrected" into a letter.
    expect(correctByCheckDigits('TD1', [at(INE[0]!, 7, '8'), INE[1]!, INE[2]!])).toBeNull();
    // A name letter read as a digit is not touched by the check digits (no digit covers names).
    const nameRead = [at(TD3[0]!, 5, '8'), TD3[1]!];
    expect(checkMrz(nameRead).valid).toBe(false);
    expect(correctByCheckDigits('TD3', nameRead)).toBeNull();
  });

  it('takes no guess when two corrections of the same size verify and no reading tells them apart', () => {
    const read = [TD3[0]!, at(TD3[1]!, 28, '2')];
    // A witness that shows neither candidate (the same misreading) decides nothing.
    expect(correctByCheckDigits('TD3', read, [read[1]!])).toBeNull();
    // A witness showing both would not decide either.
    expect(correctByCheckDigits('TD3', read, ['ZE184226B', '2E1B4226B'])).toBeNull();
  });
});
