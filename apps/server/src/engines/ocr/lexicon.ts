/**
 * Accent-free forms for comparing words (labels, header phrases, MRZ names). Values themselves are returned as
 * printed: an earlier word list that added accents to names read without them was removed because it changed
 * what the card prints (GOMEZ returned as GÓMEZ), see docs/decisions.md "Label-anchored ID reading".
 */
export function plainForm(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

/** Accents and tildes read on a text (combining marks once decomposed). */
export function markCount(text: string): number {
  return (text.normalize('NFD').match(/[\u0300-\u036f]/g) ?? []).length;
}

/** Letters and digits only, in capitals, accents and the Ñ's tilde aside: two readings of the same printed letters. */
export function letterKey(text: string): string {
  return plainForm(text.toUpperCase()).replace(/[^A-Z0-9]/g, '');
}
