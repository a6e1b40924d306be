import { readJson, writeJson, type StateStorage } from './storage';

/** ocrFront / ocrBack of docs/flow.md §3: the server's ocrData, field names as sent. */
export type OcrRecord = Record<string, string | number | boolean | null>;

export type IdSide = 'front' | 'back';

function isOcrRecord(value: unknown): value is OcrRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
}

/** A field of an OCR record as text ('' when absent or not text-like). */
export function ocrText(record: OcrRecord | null | undefined, key: string): string {
  const value = record?.[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function readOcr(storage: StateStorage, key: 'ocrFront' | 'ocrBack'): OcrRecord | null {
  const stored = readJson(storage, key);
  return isOcrRecord(stored) ? stored : null;
}

/**
 * A front read: ocrFront, and ocrFrontOk ('true' when the data met the front-data rule, 'false' when it
 * was tolerated). Any back read from an earlier capture belongs to another document: it is dropped.
 */
export function storeFrontRead(storage: StateStorage, ocrData: OcrRecord, dataOk: boolean): void {
  writeJson(storage, 'ocrFront', ocrData);
  storage.set('ocrFrontOk', String(dataOk));
  storage.remove('ocrBack');
  storage.remove('ocrBackOk');
}

export function storeBackRead(storage: StateStorage, ocrData: OcrRecord): void {
  writeJson(storage, 'ocrBack', ocrData);
  storage.set('ocrBackOk', 'true');
}

/**
 * intentsData of docs/flow.md §3: the attempts counted so far, per step (the server's step names), mirrored for
 * display only: the server counts and enforces INTENTOS_ID_FRONTAL / INTENTOS_ID_REVERSO. Other steps may
 * keep their own keys in the same object; they are preserved.
 */
export interface IntentsData {
  id_frontal: number;
  id_reverso: number;
  /** The one tolerated incomplete front read (docs/flow.md §4) has been used. */
  id_frontal_tolerado: boolean;
}

function rawIntents(storage: StateStorage): Record<string, unknown> {
  const stored = readJson(storage, 'intentsData');
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

export function readIntents(storage: StateStorage): IntentsData {
  const raw = rawIntents(storage);
  return {
    id_frontal: count(raw.id_frontal),
    id_reverso: count(raw.id_reverso),
    id_frontal_tolerado: raw.id_frontal_tolerado === true,
  };
}

export function writeIntents(storage: StateStorage, intents: IntentsData): void {
  writeJson(storage, 'intentsData', { ...rawIntents(storage), ...intents });
}
