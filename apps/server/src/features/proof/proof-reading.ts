/**
 * The two judgements made on a proof of address: is it in the ID holder's name, and is it recent. Both are
 * pure and tolerant of how bills and OCR differ from the ID: accents, word order (bills often print surnames
 * first), a missing second surname, particles, and a misread letter per word.
 */
import { foldText, type ProofFields } from '../../engines/ocr/fields/proof.js';
import type { CheckOutcome, ProofReading } from '../../domain/evidence-kinds.js';
import { editDistance } from '../../domain/edit-distance.js';

/** The ID holder's name as read from the ID front (ocrFront) or confirmed by the user (data_user). */
export interface IdName {
  nombreCompleto?: string;
  nombres?: string;
  apellidoPaterno?: string;
  apellidoMaterno?: string;
}

const PARTICLES = new Set(['DE', 'DEL', 'LA', 'LAS', 'LOS', 'Y', 'MC', 'VON', 'VAN']);

export function nameTokens(name: string): string[] {
  return foldText(name)
    .replace(/[^A-ZÑ ]/g, ' ')
    .split(' ')
    .filter((w) => w.length >= 2 && !PARTICLES.has(w));
}

/** One misread letter allowed from 4 letters on, two from 8; short words must be exact. */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  return editDistance(a, b) <= (shorter >= 8 ? 2 : 1);
}

/**
 * True when the bill's name is the ID holder's: every word of the bill's name is one of the holder's (OCR noise
 * tolerated), at least two words agree, and the paternal surname and a given name are among them when the ID
 * says which they are (so a relative sharing both surnames does not match). Null when either name is unknown.
 */
export function namesMatch(id: IdName, billName: string | undefined): boolean | null {
  const idFull = id.nombreCompleto?.trim() ? id.nombreCompleto : [id.nombres, id.apellidoPaterno, id.apellidoMaterno].filter(Boolean).join(' ');
  const idWords = nameTokens(idFull ?? '');
  const billWords = nameTokens(billName ?? '');
  if (idWords.length === 0 || billWords.length === 0) return null;
  const found = (word: string, among: string[]) => among.some((w) => sameWord(word, w));
  const billMatched = billWords.filter((w) => found(w, idWords));
  if (billMatched.length < 2 || billMatched.length < billWords.length) return false;
  const given = nameTokens(id.nombres ?? '');
  const paternal = nameTokens(id.apellidoPaterno ?? '');
  if (given.length > 0 && !given.some((w) => found(w, billWords))) return false;
  if (paternal.length > 0 && !paternal.every((w) => found(w, billWords))) return false;
  return true;
}

/** Spec-free project rule (MESES_VIGENCIA_COMPROBANTE): issued at most `months` calendar months before today. */
export function isRecent(issueDate: string | undefined, today: Date, months: number): boolean | null {
  if (!issueDate || !/^\d{4}-\d{2}-\d{2}$/.test(issueDate)) return null;
  const issued = Date.parse(`${issueDate}T00:00:00Z`);
  const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  // A bill dated after today is a misread or a forgery: not recent.
  if (issued > day + 24 * 3600 * 1000) return false;
  const limit = new Date(day);
  limit.setUTCMonth(limit.getUTCMonth() - months);
  return issued >= limit.getTime();
}

export function proofOutcome(nameMatchesId: boolean | null, recent: boolean | null): CheckOutcome {
  if (nameMatchesId === false || recent === false) return 'failed';
  if (nameMatchesId === true && recent === true) return 'passed';
  return 'not_checked';
}

/** A reading counts as legible when any part of the address or the holder was found (a lone date does not). */
const ADDRESS_KEYS = ['holderName', 'street', 'settlement', 'postalCode'] as const;

export function proofReading(fields: ProofFields | null, id: IdName | null, today: Date, months: number, detail?: string): ProofReading {
  const nameMatchesId = fields && id ? namesMatch(id, fields.holderName) : null;
  const recent = fields ? isRecent(fields.issueDate, today, months) : null;
  return {
    outcome: proofOutcome(nameMatchesId, recent),
    ...(fields ?? {}),
    read: fields !== null && ADDRESS_KEYS.some((key) => fields[key] !== undefined),
    nameMatchesId,
    recent,
    maxAgeMonths: months,
    ...(detail ? { detail } : {}),
  };
}
