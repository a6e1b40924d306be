/** What a document reader declares: where each printed field sits and how to turn the reads into wire values. */
import type { RawImage } from '../homography.js';
import type { MrzResult } from '../mrz.js';
import type { Region } from '../page.js';
import type { RawRead, Segmentation } from '../pool.js';
import type { IdSide, ReadDocumentType } from '../types.js';

export interface FieldSpec {
  key: string;
  /** Where the value is printed on the upright card (fractions of width and height). */
  region: Region;
  segmentation: Exclude<Segmentation, 'auto'>;
  whitelist?: string;
  /** Threshold the crop before OCR (short fields: digits, single letters). */
  binarise?: boolean;
  /** Warnings of a first parse that make the engine read this field again from other renditions. */
  retryOn?: string[];
  /** Also read by the legacy engine (codes): that reading comes first among the alternates. */
  legacyToo?: boolean;
  /** Tiled thresholding (see ReadParams): for short fields of a word or a letter. */
  adaptiveThreshold?: boolean;
  /**
   * A block of lines packed close (the E/F names): also cut into its lines at the thin rows between them and each
   * line read alone (line-bands.ts), one more alternate reading on the first pass.
   */
  splitLines?: boolean;
}

export interface ParseInput {
  reads: Record<string, RawRead>;
  /** Further readings of fields read again (binarised, enlarged) after a first parse flagged them. */
  alternates: Record<string, RawRead[]>;
  card: RawImage;
  mrz: MrzResult | null;
  today: Date;
  /** ocrData of this document's front, read before (to cross-check the back's MRZ with it). */
  front?: Record<string, string | boolean> | undefined;
  /** The whole card read once for its words and their boxes (card pixels), when the reader asks for it. */
  page?: RawRead | undefined;
}

export interface ParsedSide {
  ocrData: Record<string, string | boolean>;
  /** ocrBack fields when this side also carries the MRZ (the passport data page). */
  ocrBack?: Record<string, string>;
  extra: Record<string, string>;
  warnings: string[];
  /** The MRZ lines after a cross-check corrected them (names checked against the print). */
  mrzLines?: string[];
  /** How sure the reading of each ocrData field is, 0..1 (0: not read, left empty). */
  confidence?: Record<string, number>;
}

/** Where a label-anchored reader wants its fields cut from the card, decided from the whole-card read. */
export interface Located {
  /** Field key → region on the upright card (fractions); fields absent keep their layout region. */
  regions: Record<string, Region>;
  /** Fields the whole-card read already holds: not cut and read again on the first pass. */
  skip: string[];
}

export interface DocumentReader {
  documentType: Exclude<ReadDocumentType, 'UNKNOWN'>;
  side: IdSide;
  fields: FieldSpec[];
  /** The holder's photo on this side, padded generously (the face engine re-detects inside it). */
  photo?: Region;
  /** The fields worth reading once the MRZ is known (all of `fields` when absent). */
  fieldsToRead?(mrz: MrzResult | null): FieldSpec[];
  /** Read the whole card first (at this scale of the card) and hand its words to `locate` and `parse`. */
  page?: { scale: number };
  /**
   * Everything this reader reads is printed dark on light: tesseract is spared its second look at each doubtful
   * line inverted (`ReadParams.tryInverted` false on the page and field reads).
   */
  darkOnLight?: boolean;
  locate?(page: RawRead, width: number, height: number): Located;
  parse(input: ParseInput): ParsedSide;
}

export const DIGITS = '0123456789';
export const CODE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Warnings that send a CURP to be read again. */
export const CURP_RETRY = ['curp_check_digit_failed', 'curp_format_invalid', 'curp_incomplete'];

export function documentFlags(type: DocumentReader['documentType']): Record<string, boolean> {
  return {
    identificacionElectoral: type === 'INE',
    identificacionPasaporte: type === 'PASAPORTE',
    identificacionMigratoria: type === 'FMM',
    documentoNacionalPeru: type === 'DNI_PERU',
    documentoPermanente: false,
  };
}

/** A line of print (names, places, dates); read again when the parse says `${key}_unreadable`. */
export function line(key: string, region: Region, options: Partial<FieldSpec> = {}): FieldSpec {
  return { key, region, segmentation: 'line', retryOn: [`${key}_unreadable`], ...options };
}

/** A code (CURP, clave): whitelisted, and read by the legacy engine as well. */
export function code(key: string, region: Region, retryOn: string[]): FieldSpec {
  return { key, region, segmentation: 'line', whitelist: CODE_CHARS, legacyToo: true, retryOn };
}

/** A short number or a lone letter: tiled thresholding, and a second reading by the legacy engine. */
export function short(key: string, region: Region, whitelist: string, options: Partial<FieldSpec> = {}): FieldSpec {
  return {
    key,
    region,
    segmentation: 'line',
    whitelist,
    legacyToo: true,
    adaptiveThreshold: true,
    retryOn: [`${key}_unreadable`],
    ...options,
  };
}

/** The printed sex letter, thresholded before OCR. */
export function sexLetter(region: Region, whitelist: string): FieldSpec {
  return short('sexo', region, whitelist, { segmentation: 'char', binarise: true });
}

/** A region from pixel coordinates on the reference render of a document (width 2000). */
export function px(height: number, x0: number, y0: number, x1: number, y1: number): Region {
  return { x0: x0 / 2000, y0: y0 / height, x1: x1 / 2000, y1: y1 / height };
}

/** Every reading of a field: the first one, then the renditions read on retry. */
export function readings(input: Pick<ParseInput, 'reads' | 'alternates'>, key: string): RawRead[] {
  const first = input.reads[key];
  return [...(first ? [first] : []), ...(input.alternates[key] ?? [])];
}

/** Mean word confidence of a read (0 without words). */
export function readConfidence(read: RawRead): number {
  const words = read.lines.flatMap((l) => l.words);
  return words.length === 0 ? 0 : words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
}

/** The reading of a field tesseract was most confident about (names and places, which carry no check). */
export function bestReading(input: Pick<ParseInput, 'reads' | 'alternates'>, key: string): RawRead | undefined {
  return readings(input, key).reduce<RawRead | undefined>((best, r) => (!best || readConfidence(r) > readConfidence(best) ? r : best), undefined);
}
