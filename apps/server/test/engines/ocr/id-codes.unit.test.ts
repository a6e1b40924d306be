import { describe, expect, it } from 'vitest';
import { isCurpCheckDigitValid } from '@kyc/contracts/rules';
import { claveAgreement, claveBirthState, curpNameLetters, repairClaveElector, repairCurp, repairCurpFrom } from '../../../src/engines/ocr/id-codes.js';

// Real-rule CURPs (check digits verified in the test below).
const HECTOR = 'DIYH010912HCHZXCC7'; // HÉCTOR DÍAZ YÁÑEZ, 12/09/2001, Chihuahua
const TOMAS = 'CURT880220HTSRMM31'; // TOMÁS CRUZ ROMERO, 20/02/1988, Tamaulipas
const ALEJANDRO = 'MUSA680304HASXNL51'; // ALEJANDRO MUÑOZ SÁNCHEZ, 04/03/1968, Aguascalientes
const JULIAN = 'CUMJ970814HTSRDL46'; // JULIÁN CRUZ MEDINA, 14/08/1997, Tamaulipas

const context = (apellidoPaterno: string, apellidoMaterno: string, nombres: string, [day, month, year]: number[]) => ({
  birthDate: { day: day!, month: month!, year: year! },
  sex: 'H' as const,
  nameLetters: curpNameLetters({ apellidoPaterno, apellidoMaterno, nombres }),
});

describe('repairCurp', () => {
  it('starts from valid CURPs', () => {
    for (const curp of [HECTOR, TOMAS, ALEJANDRO, JULIAN]) expect(isCurpCheckDigitValid(curp), curp).toBe(true);
  });

  it('reads letters and digits by position (O↔0, S↔5, B↔8, I↔1, Z↔2, G↔6)', () => {
    expect(repairCurp('DIYHO1O912HCHZXCC7')).toEqual({ value: HECTOR, warnings: [] });
    expect(repairCurp('CURTB8O22OHTSRMM3I')).toEqual({ value: TOMAS, warnings: [] });
  });

  it('drops a character the OCR added when the rest then fits every position', () => {
    expect(repairCurp('MUSA6G80304HASXNL51').value).toBe(ALEJANDRO);
    expect(repairCurp('CUMJ970814HTSRDLA46', context('CRUZ', 'MEDINA', 'JULIÁN', [14, 8, 1997])).value).toBe(JULIAN);
  });

  it('takes a character from another reading only when the check digit then holds', () => {
    // 'A' cannot stand among the consonants; the names say R; the check digit agrees.
    const fixed = repairCurp('CURT880220HTSAMM31', context('CRUZ', 'ROMERO', 'TOMÁS', [20, 2, 1988]));
    expect(fixed).toEqual({ value: TOMAS, warnings: ['curp_corrected_by_cross_check'] });
    // A lost character put back from the names and the birth date.
    expect(repairCurp('JMJ970814HTSRDL46', context('CRUZ', 'MEDINA', 'JULIÁN', [14, 8, 1997])).value).toBe(JULIAN);
  });

  it('never changes a read only to satisfy the check digit: the failure is reported', () => {
    const read = `${TOMAS.slice(0, 17)}4`;
    const result = repairCurp(read, context('CRUZ', 'ROMERO', 'TOMÁS', [20, 2, 1988]));
    expect(result.value).toBe(read);
    expect(result.warnings).toContain('curp_check_digit_failed');
  });

  it('flags a CURP that disagrees with the printed birth date or sex', () => {
    const result = repairCurp(TOMAS, { birthDate: { day: 21, month: 2, year: 1988 }, sex: 'M' });
    expect(result.warnings).toEqual(['curp_birth_date_mismatch', 'curp_sex_mismatch']);
  });

  it('reports an incomplete read as such', () => {
    expect(repairCurp('CURT8802')).toEqual({ value: 'CURT8802', warnings: ['curp_incomplete'] });
    expect(repairCurp('')).toEqual({ value: '', warnings: [] });
  });

  it('prefers, among several readings, the first one that is sound', () => {
    expect(repairCurpFrom([`${TOMAS.slice(0, 17)}4`, TOMAS]).value).toBe(TOMAS);
    expect(repairCurpFrom([`${TOMAS.slice(0, 17)}4`]).warnings).toContain('curp_check_digit_failed');
  });

  it("reads an O where the names' letters want a U when that makes the check digit hold (the bold face's U)", () => {
    const repaired = repairCurp('NUUO010620MCMXRRS3', {
      birthDate: { day: 20, month: 6, year: 2001 },
      sex: 'M',
      nameLetters: curpNameLetters({ apellidoPaterno: 'NUÑEZ', apellidoMaterno: 'UREÑA', nombres: 'URSULA' }),
    });
    expect(repaired).toEqual({ value: 'NUUU010620MCMXRRS3', warnings: ['curp_corrected_by_cross_check'] });
  });

  it('reads the 17th character as a digit when its own year can only be of the 1900s, the printed date unread', () => {
    expect(repairCurp('HERA960601MASRYNO0').value).toBe('HERA960601MASRYN00');
    // '05' may be 1905 or 2005: the letter stays for the check digit and the other readings to settle.
    expect(repairCurp('HERA050601MASRYNO0').value).toBe('HERA050601MASRYNO0');
  });

  it('of two sound readings, takes the one the clave de elector agrees with', () => {
    // URSULA NUÑEZ UREÑA's CURP and a misreading of it that keeps the check digit (read from a page line 'NUUVU…').
    const ursula = 'NUUU010620MCMXRRS3';
    const misread = 'UUVU010620MCMXRRS3';
    expect(isCurpCheckDigitValid(misread)).toBe(true);
    expect(repairCurpFrom([misread, ursula]).value).toBe(misread);
    expect(repairCurpFrom([misread, ursula], { clave: 'NXURUR01062006M382' }).value).toBe(ursula);
    expect(claveAgreement(ursula, 'NXURUR01062006M382')).toBe(1);
    // A vowel initial is not compared; a consonant the clave does not spell counts against.
    expect(claveAgreement(misread, 'NXURUR01062006M382')).toBe(-1);
  });
});

describe('curpNameLetters', () => {
  it('follows the RENAPO rules the generator and RENAPO use', () => {
    expect(curpNameLetters({ apellidoPaterno: 'DÍAZ', apellidoMaterno: 'YÁÑEZ', nombres: 'HÉCTOR' })).toEqual({ initials: 'DIYH', consonants: 'ZXC' });
    // MARÍA is skipped when another given name follows; particles are dropped.
    expect(curpNameLetters({ apellidoPaterno: 'DE LA CRUZ', apellidoMaterno: 'PEÑA', nombres: 'MARÍA JOSÉ' })).toEqual({ initials: 'CUPJ', consonants: 'RXS' });
  });
});

describe('clave de elector', () => {
  it('reads letters and digits by position and checks the birth date', () => {
    const result = repairClaveElector('DZYXHCO1O912O8H473', { birthDate: { day: 12, month: 9, year: 2001 } });
    expect(result).toEqual({ value: 'DZYXHC01091208H473', warnings: [] });
    expect(repairClaveElector('DZYXHC01091208H473', { birthDate: { day: 13, month: 9, year: 2001 } }).warnings).toEqual(['clave_elector_birth_date_mismatch']);
  });

  it('carries the birth state as an INE entity number', () => {
    expect(claveBirthState('DZYXHC01091208H473')).toBe('CH');
    expect(claveBirthState('GMESNC80081214H962')).toBe('JC');
    expect(claveBirthState('GMESNC80081299H962')).toBeNull();
  });
});
