import type { ProofFields } from './fields/proof.js';
import type { MrzFieldValue, MrzFormat } from './mrz-formats.js';
import type { MrzCorrection } from './mrz-parse.js';

/**
 * The document-reading engine behind `/v2/ocr`. The HTTP layer depends on this interface only; the
 * implementation (tesseract.js off the event loop) lives beside it.
 */
export type IdSide = 'front' | 'back';
/** VISA: an ICAO visa (MRV-A, MRV-B), recognised and read but not an ID the flow accepts. */
export type ReadDocumentType = 'INE' | 'PASAPORTE' | 'DNI_PERU' | 'FMM' | 'VISA' | 'UNKNOWN';

export interface OcrInput {
  /** The uploaded image (PNG/JPEG/WebP), already sniffed and size-checked by the caller. */
  image: Buffer;
  side: IdSide;
  /** The flow's hint that the user is capturing a passport (router state passport=true). */
  passportHint?: boolean;
  /**
   * Added: the ocrData of this document's front read earlier in the transaction. When given with a back,
   * the back's MRZ is cross-checked against it (warnings 'mrz_front_mismatch:<field>').
   */
  frontData?: Record<string, string | boolean>;
}

export interface MrzReading {
  format: MrzFormat;
  lines: string[];
  /** Every check digit of the zone verified and every field well formed. */
  valid: boolean;
  checkDigits: Record<string, boolean>;
  /** Every field of the zone as printed (dates YYMMDD), each with its confidence (0..1). */
  fields: Record<string, MrzFieldValue>;
  /**
   * Characters changed because the check digits required it (a letter/digit confusion such as Z read as 2 in
   * the personal number): line and column, as read and as taken. Absent when the zone was taken as read.
   */
  corrections?: MrzCorrection[];
}

export interface OcrResult {
  documentType: ReadDocumentType;
  side: IdSide;
  /** ocrFront or ocrBack fields with the docs/flow.md §3 wire names; values as read (after the §5 normalisations). */
  ocrData: Record<string, string | boolean>;
  /** Added: the ocrBack fields (cadena, nombreCompletoMRZ) when the side read also carries the MRZ (passport page). */
  ocrBack?: Record<string, string>;
  /** Added: printed facts without a spec wire name (passport number, nationality, FMM folio and entry date...). */
  extra?: Record<string, string>;
  mrz?: MrzReading;
  /** PNG of the holder's photo on the front, kept for the face match. */
  faceCrop?: Buffer;
  /** Whether the card was found and straightened before reading. */
  geometry: { cardFound: boolean; rotationDeg: number; cropped: boolean };
  /** Added: how sure each ocrData field is, 0..1 (0: not read and left empty for the person to type). */
  confidence?: Record<string, number>;
  /** Field-level flags (e.g. 'curp_check_digit_failed', 'mrz_front_mismatch:curp'); never PII. */
  warnings: string[];
  timingsMs: Record<string, number>;
}

/** The 'proof' read mode: a proof of address (utility bill) read as a page of text. */
export interface ProofOcrResult {
  fields: ProofFields;
  /** Lines of text found on the page (0: nothing legible). */
  lineCount: number;
  timingsMs: Record<string, number>;
}

export interface OcrEngine {
  read(input: OcrInput): Promise<OcrResult>;
  /** Reads a proof of address on the same workers as the IDs. Rejects with OcrImageError when it is not a picture. */
  readProof(image: Buffer): Promise<ProofOcrResult>;
  close(): Promise<void>;
}
