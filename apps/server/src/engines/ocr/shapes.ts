/** Characters OCR confuses by shape, shared by the code and MRZ repairs (which know the class a position needs). */

/** A letter where a digit must stand, read as the digit it looks like. */
export const DIGIT_FOR_LETTER: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  J: '1',
  T: '7',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
  E: '8',
};

/** A digit where a letter must stand, read as the letter it looks like. */
export const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
};
