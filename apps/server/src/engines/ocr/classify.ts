/**
 * Document type and side from what was read: header words (fuzzy, accents ignored) and the MRZ's
 * document code and issuer, which settle it when present.
 */
import { plainForm } from './lexicon.js';
import type { IdSide, ReadDocumentType } from './types.js';

export interface Classification {
  documentType: ReadDocumentType;
  side: IdSide;
}

/** Documents recognised by their printed words (a visa only by its MRZ). */
type Known = Exclude<ReadDocumentType, 'UNKNOWN' | 'VISA'>;

/** Phrases, each worth its weight when all its words are found (words may be misread by one letter). */
const PHRASES: Record<Known, Array<[string, number]>> = {
  INE: [
    ['INSTITUTO NACIONAL ELECTORAL', 3],
    ['CREDENCIAL PARA VOTAR', 3],
    ['INSTITUTO FEDERAL ELECTORAL', 3],
    ['ELECTORAL', 1],
    ['CREDENCIAL', 1],
    ['VOTAR', 1],
    ['IFE', 1],
  ],
  PASAPORTE: [
    ['PASAPORTE', 3],
    ['PASSPORT', 2],
    ['PASSEPORT', 1],
  ],
  FMM: [
    ['FORMA MIGRATORIA', 3],
    ['FMM', 2],
    ['MIGRATORIA', 1],
    ['INSTITUTO NACIONAL DE MIGRACION', 2],
    ['MULTIPLE', 1],
  ],
  DNI_PERU: [
    ['DOCUMENTO NACIONAL DE IDENTIDAD', 3],
    ['REPUBLICA DEL PERU', 3],
    ['PERU', 2],
    ['RENIEC', 2],
    ['IDENTIFICACION Y ESTADO CIVIL', 1],
  ],
};

function words(text: string): string[] {
  return plainForm(text.toUpperCase())
    .replace(/[^A-Z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/** Same length and at most one different letter (long words), or equal (short words). */
function similar(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length || a.length < 5) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++diff > 1) return false;
  return true;
}

export function textScores(text: string): Record<Known, number> {
  const found = words(text);
  const has = (word: string) => found.some((w) => similar(w, word));
  const scores = { INE: 0, PASAPORTE: 0, FMM: 0, DNI_PERU: 0 };
  for (const [type, phrases] of Object.entries(PHRASES) as Array<[Known, Array<[string, number]>]>) {
    for (const [phrase, weight] of phrases) if (phrase.split(' ').every(has)) scores[type] += weight;
  }
  return scores;
}

/**
 * What the MRZ's first line says: TD3 'P' is a passport, a 'V' zone (MRV-A, MRV-B) a visa, TD1 'ID'+'MEX' the
 * INE, 'I<PER' the Peru DNI.
 */
export function mrzDocument(lines: readonly string[] | null): Classification | null {
  const first = lines?.[0];
  if (!first) return null;
  if (first.length === 44 && first.startsWith('P')) return { documentType: 'PASAPORTE', side: 'front' };
  if ((first.length === 44 || first.length === 36) && lines.length === 2 && first.startsWith('V')) {
    return { documentType: 'VISA', side: 'front' };
  }
  const issuer = first.slice(2, 5);
  if (first.startsWith('ID') && issuer === 'MEX') return { documentType: 'INE', side: 'back' };
  if (first.startsWith('I') && issuer === 'PER') return { documentType: 'DNI_PERU', side: 'back' };
  return null;
}

export function classify(input: { text: string; mrzLines: readonly string[] | null; declaredSide: IdSide; passportHint?: boolean | undefined }): Classification {
  const fromMrz = mrzDocument(input.mrzLines);
  if (fromMrz) return fromMrz;
  const scores = textScores(input.text);
  if (input.passportHint) scores.PASAPORTE += 1;
  const [best, score] = (Object.entries(scores) as Array<[Known, number]>).reduce((a, b) => (b[1] > a[1] ? b : a));
  if (score < 2) return { documentType: 'UNKNOWN', side: input.declaredSide };
  // Passports and the FMM have one side to read; the INE and DNI backs carry an MRZ.
  const side: IdSide = best === 'PASAPORTE' || best === 'FMM' ? 'front' : input.declaredSide;
  return { documentType: best, side };
}
