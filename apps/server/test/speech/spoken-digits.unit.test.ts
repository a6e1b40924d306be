import { describe, expect, it } from 'vitest';
import { saysCode, spokenDigits, transcriptTokens } from '../../src/engines/speech/spoken-digits.js';

describe('spokenDigits: the digits a Spanish transcript says', () => {
  it.each([
    ['cuatro siete dos nueve', '4729'],
    ['4 7 2 9', '4729'],
    ['4729', '4729'],
    ['4-7-2-9.', '4729'],
    ['cuatro, siete, dos y nueve', '4729'],
    ['Cuatro. Siete. Dos. Nueve.', '4729'],
    ['CUATRO SIETE DOS NUEVE', '4729'],
    ['cuarenta y siete veintinueve', '4729'],
    ['cuarenta y siete, veintinueve.', '4729'],
    ['47 29', '4729'],
    ['4,729', '4729'],
    ['cuatro mil setecientos veintinueve', '4729'],
    ['cuatrocientos setenta y dos nueve', '4729'],
    ['cuatro siete veintinueve', '4729'],
    ['cero', '0'],
    ['cero cero uno dos', '0012'],
    ['uno cero cero ocho', '1008'],
    ['seis, seis, seis, seis', '6666'],
    ['cinco ocho tres uno', '5831'],
  ])('%j reads %s', (transcript, digits) => {
    expect(spokenDigits(transcript)).toBe(digits);
  });

  it('reads accented and unaccented spellings alike', () => {
    expect(spokenDigits('dieciséis veintitrés')).toBe('1623');
    expect(spokenDigits('dieciseis veintitres')).toBe('1623');
    expect(spokenDigits('Veintidós, veintiún')).toBe('2221');
  });

  it('reads the tens with and without "y", and older spellings', () => {
    expect(spokenDigits('noventa y nueve')).toBe('99');
    expect(spokenDigits('noventa nueve')).toBe('99');
    expect(spokenDigits('treinta')).toBe('30');
    expect(spokenDigits('diez y seis')).toBe('16');
    expect(spokenDigits('veinte y nueve')).toBe('29');
    // "y" between single digits is only a conjunction.
    expect(spokenDigits('dos y nueve')).toBe('29');
  });

  it('reads hundreds and thousands', () => {
    expect(spokenDigits('cien')).toBe('100');
    expect(spokenDigits('ciento dos')).toBe('102');
    expect(spokenDigits('quinientas cuarenta')).toBe('540');
    expect(spokenDigits('mil dos')).toBe('1002');
    expect(spokenDigits('dos mil')).toBe('2000');
    expect(spokenDigits('nueve mil novecientos noventa y nueve')).toBe('9999');
    // A "cero" after a hundred is a digit of its own.
    expect(spokenDigits('cien cero')).toBe('1000');
  });

  it('skips fillers and words that are not numbers', () => {
    expect(spokenDigits('Eh... el código es: cuatro, este, siete, dos, y nueve, ¿sí?')).toBe('4729');
    expect(spokenDigits('Mi número es 4 7 2 9, gracias.')).toBe('4729');
    expect(spokenDigits('')).toBe('');
    expect(spokenDigits('Gracias por ver el video.')).toBe('');
    // Words that are properties of every object are not numbers.
    expect(spokenDigits('constructor toString valueOf __proto__')).toBe('');
  });

  it('splits digits glued to words', () => {
    expect(transcriptTokens('4y7, dos!')).toEqual(['4', 'y', '7', 'dos']);
    expect(spokenDigits('4y7y2y9')).toBe('4729');
  });
});

describe('saysCode: the four digits in order', () => {
  it('is verified when the code is said, whatever the wording', () => {
    expect(saysCode('cuatro siete dos nueve', '4729')).toEqual({ verified: true, heard: '4729' });
    expect(saysCode('cuarenta y siete veintinueve', '4729')).toEqual({ verified: true, heard: '4729' });
    expect(saysCode('cero siete cero uno', '0701')).toEqual({ verified: true, heard: '0701' });
  });

  it('allows other numbers around the code', () => {
    expect(saysCode('uno, perdón: cuatro siete dos nueve', '4729')).toEqual({ verified: true, heard: '14729' });
  });

  it('is not verified when a digit is wrong, missing, extra in the middle, or out of order', () => {
    expect(saysCode('cuatro siete dos ocho', '4729')).toEqual({ verified: false, heard: '4728' });
    expect(saysCode('cuatro siete dos', '4729')).toEqual({ verified: false, heard: '472' });
    expect(saysCode('cuatro siete uno dos nueve', '4729')).toEqual({ verified: false, heard: '47129' });
    expect(saysCode('siete cuatro dos nueve', '4729')).toEqual({ verified: false, heard: '7429' });
    expect(saysCode('', '4729')).toEqual({ verified: false, heard: '' });
    expect(saysCode('Gracias por ver el video.', '4729')).toEqual({ verified: false, heard: '' });
  });

  it('never verifies an empty code', () => {
    expect(saysCode('cuatro', '').verified).toBe(false);
  });
});
