/**
 * The document-reading engine behind `/v2/ocr`. The HTTP layer depends on this interface only; the
 * implementation (tesseract.js off the event loop) lives beside it.
 */
export type IdSide = 'front' | 'back';
export type ReadDocumentType = 'INE' | 'PASAPORTE' | 'DNI_PERU' | 'FMM' | 'UNKNOWN';

export interface OcrInput {
  /** The uploaded image (PNG/JPEG/WebP), already sniffed and size-checked by the caller. */
  image: Buffer;
  side: IdSide;
  /** The flow's hint that the user is capturing a passport (router state passport=true). */
  passportHint?: boolean;
}

export interface MrzReading {
  format: 'TD1' | 'TD3';
  lines: string[];
  /** Every check digit of the zone verified. */
  valid: boolean;
  checkDigits: Record<string, boolean>;
}

export interface OcrResult {
  documentType: ReadDocumentType;
  side: IdSide;
  /** ocrFront or ocrBack fields with the spec §3 wire names; values as read (after the §5 normalisations). */
  ocrData: Record<string, string | boolean>;
  mrz?: MrzReading;
  /** PNG of the holder's photo on the front, kept for the face match. */
  faceCrop?: Buffer;
  /** Whether the card was found and straightened before reading. */
  geometry: { cardFound: boolean; rotationDeg: number; cropped: boolean };
  /** Field-level flags (e.g. 'curp_check_digit_failed', 'mrz_front_mismatch:curp'); never PII. */
  warnings: string[];
  timingsMs: Record<string, number>;
}

export interface OcrEngine {
  read(input: OcrInput): Promise<OcrResult>;
  close(): Promise<void>;
}
