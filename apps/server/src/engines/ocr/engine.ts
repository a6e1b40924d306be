/**
 * The OCR engine: straighten the photo, read the header and (when there is one) the MRZ in parallel,
 * classify, read every field of that document's layout on the pooled workers, parse, cross-check, and
 * crop the holder's photo.
 */
import { classify, mrzDocument, type Classification } from './classify.js';
import { cropFace } from './face-crop.js';
import { blankRow } from './page-cut.js';
import { ineBack } from './fields/ine-back.js';
import { ineFront } from './fields/ine-front.js';
import { dniPeruBack, dniPeruFront } from './fields/dni-peru.js';
import { fmm } from './fields/fmm.js';
import { passportFront } from './fields/passport.js';
import type { DocumentReader, FieldSpec, ParsedSide, ParseInput } from './fields/spec.js';
import { fieldImage } from './field-image.js';
import { lineBands } from './line-bands.js';
import { encodeGreyPng, straighten, type StraightenedCard } from './geometry.js';
import type { MrzResult } from './mrz.js';
import { readMrzAnyOrientation, turnCard } from './mrz-orient.js';
import { checkMrz } from './mrz-parse.js';
import { regionToPixels, type Box } from './page.js';
import { OcrPool, type RawLine, type RawRead } from './pool.js';
import type { ProofFields } from './fields/proof.js';
import { readProofPage, sharpenedPhotoPage } from './proof-page.js';
import type { Quad } from './homography.js';
import sharp from 'sharp';
import type { MrzReading, OcrEngine, OcrInput, OcrResult, ProofOcrResult } from './types.js';

export interface OcrEngineOptions {
  /** LSTM workers for printed text (default 2); one more legacy worker reads MRZs. */
  textWorkers?: number;
  /** Width of the straightened card the fields are read from (default 2000 px). */
  cardWidth?: number;
  /** "Today", for two-digit years (default: the clock). */
  now?: () => Date;
  /**
   * Read a label-anchored card's page in two halves at once on two workers (default false: halves the wall time
   * of that step on an idle machine, but on a phone photo of a generated INE the names came back without their
   * accents, YÁÑEZ read YANEZ; see docs/decisions.md).
   */
  pageHalves?: boolean;
}

/** The image could not be decoded as a picture. */
export class OcrImageError extends Error {
  override readonly name = 'OcrImageError';
}

const READERS: Record<string, DocumentReader> = Object.fromEntries([ineFront, ineBack, passportFront, fmm, dniPeruFront, dniPeruBack].map((r) => [`${r.documentType}:${r.side}`, r]));

const EMPTY_READ: RawRead = { text: '', lines: [] };

interface Rendition {
  /** Overrides the field's own choice when set. */
  binarise?: boolean;
  level?: number;
  scale: number;
}

/** Print found but nothing read, or a free-text field with a doubtful word (a split or a speck). */
function needsAnotherLook(field: FieldSpec, read: RawRead): boolean {
  if (read === EMPTY_READ) return false;
  const words = read.lines.flatMap((l) => l.words);
  return words.length === 0 || (!field.whitelist && words.some((w) => w.confidence < DOUBTFUL_CONFIDENCE));
}

const DOUBTFUL_CONFIDENCE = 50;

const FIRST_RENDITION: Rendition = { scale: 1 };
/** Read again when a first parse flags a field: thresholded nearer the ink, and enlarged. */
const RETRY_RENDITIONS: Rendition[] = [{ binarise: true, level: 0.3, scale: 1 }, { scale: 1.5 }];

/** The whole card, read for its words when the header did not say what it is (titles are large print). */
const PAGE_SCALE = 0.5;

/** The header band (document titles) of every supported document, read at reduced size. */
const HEADER = { top: 0, height: 0.2, scale: 0.6 };

/** Width of a page found in a photo, straightened (a letter page at 200 dpi). */
const PROOF_PAGE_WIDTH = 1700;
/** A quad smaller than this share of the photo is a box on the page, not the page. */
const PROOF_MIN_PAGE_SHARE = 0.2;

const hasAddress = (f: ProofFields): boolean => Boolean(f.postalCode || f.street || f.settlement || f.holderName);
const completeAddress = (f: ProofFields): boolean => Boolean(f.holderName && f.street && f.postalCode);
const filledFields = (f: ProofFields): number => Object.values(f).filter((v) => typeof v === 'string' && v !== '').length;

function quadArea(quad: Quad): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) {
    const [x1, y1] = quad[i]!;
    const [x2, y2] = quad[(i + 1) % 4]!;
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

/** A bill page is read whole at up to this size on its longest side (a letter page at ~200 dpi). */
const PROOF_MAX_SIDE = 2400;
const PROOF_MIN_WIDTH = 1600;
const PROOF_MAX_ENLARGEMENT = 2;
const PROOF_MAX_PIXELS = 40_000_000;
class TesseractOcrEngine implements OcrEngine {
  private closed = false;

  constructor(
    private readonly pool: OcrPool,
    private readonly cardWidth: number,
    private readonly now: () => Date,
    private readonly pageHalves: boolean,
  ) {}

  async read(input: OcrInput): Promise<OcrResult> {
    if (this.closed) throw new Error('OCR engine is closed');
    const started = performance.now();
    const timingsMs: Record<string, number> = {};
    const lap = (name: string, from: number) => {
      timingsMs[name] = Math.round(performance.now() - from);
    };

    let card = await this.straighten(input.image, 0);
    lap('geometry', started);

    const classifyStart = performance.now();
    const identified = await this.identify(card, input);
    let { classification, mrz } = identified;
    // The card as its MRZ reads upright (any quarter turn of the photo).
    card = identified.card;
    const warnings: string[] = identified.upsideDown ? ['card_upside_down'] : [];
    if (classification.documentType === 'UNKNOWN' && !mrz && !identified.upsideDown) {
      // Perhaps upside down (or a portrait photo turned the wrong way): one more look, half a turn round.
      const turned = await this.straighten(input.image, 2);
      // Its MRZ was looked for in every quarter turn already: only the printed words are read again.
      const second = await this.identify(turned, input, false);
      if (second.classification.documentType !== 'UNKNOWN') {
        ({ classification, mrz } = second);
        card = second.card;
        warnings.push('card_upside_down');
      }
    }
    lap('classify', classifyStart);

    if (classification.side !== input.side) warnings.push('side_mismatch');
    const reader = READERS[`${classification.documentType}:${classification.side}`];
    const mrzReading: MrzReading | undefined = mrz
      ? { format: mrz.format, lines: mrz.lines, valid: mrz.valid, checkDigits: mrz.checkDigits, fields: mrz.fields, ...(mrz.corrections ? { corrections: mrz.corrections } : {}) }
      : undefined;
    if (mrz?.corrections) warnings.push('mrz_corrected_by_check_digits');
    const base = { ...classification, geometry: card.geometry, ...(mrzReading ? { mrz: mrzReading } : {}) };
    if (!reader) {
      lap('total', started);
      const why = classification.documentType === 'VISA' ? 'document_not_accepted' : 'document_not_recognised';
      return { ...base, ocrData: {}, warnings: [...warnings, why], timingsMs };
    }

    const fieldsStart = performance.now();
    const [parsed, faceCrop] = await Promise.all([
      this.readSide(card, reader, { mrz, today: this.now(), front: input.frontData }),
      reader.photo ? cropFace(card, reader.photo) : Promise.resolve(undefined),
    ]);
    lap('fields', fieldsStart);
    lap('total', started);
    return {
      ...base,
      ...(mrzReading && parsed.mrzLines ? { mrz: { ...mrzReading, ...checkMrz(parsed.mrzLines), lines: parsed.mrzLines } } : {}),
      ocrData: parsed.ocrData,
      ...(parsed.ocrBack ? { ocrBack: parsed.ocrBack } : {}),
      ...(Object.keys(parsed.extra).length > 0 ? { extra: parsed.extra } : {}),
      ...(faceCrop ? { faceCrop } : {}),
      ...(parsed.confidence ? { confidence: parsed.confidence } : {}),
      warnings: [...warnings, ...parsed.warnings],
      timingsMs,
    };
  }

  async readProof(image: Buffer): Promise<ProofOcrResult> {
    if (this.closed) throw new Error('OCR engine is closed');
    const started = performance.now();
    const whole = await this.proofPage(image);
    // A photo of the page on a table: the page found and straightened reads far better than the whole frame.
    const page = await straighten(image, { cardWidth: PROOF_PAGE_WIDTH, quarterTurns: 3 }).catch(() => undefined);
    const usePage = page !== undefined && page.geometry.cardFound && page.grey.height > page.grey.width && quadArea(page.quad) >= PROOF_MIN_PAGE_SHARE * page.source.width * page.source.height;
    const prepared = Math.round(performance.now() - started);
    const pagePng = usePage ? await encodeGreyPng(page.grey) : whole;
    let result = await this.readProofPng(pagePng);
    if (usePage && !completeAddress(result.fields)) {
      const sharpened = await this.readProofPng(await sharpenedPhotoPage(pagePng));
      if (filledFields(sharpened.fields) > filledFields(result.fields)) result = sharpened;
    }
    if (usePage && !hasAddress(result.fields)) {
      const second = await this.readProofPng(whole);
      if (hasAddress(second.fields)) result = second;
    }
    return { ...result, timingsMs: { prepare: prepared, total: Math.round(performance.now() - started) } };
  }

  private async proofPage(image: Buffer): Promise<Buffer> {
    try {
      const oriented = sharp(image, { limitInputPixels: PROOF_MAX_PIXELS }).rotate();
      const { width = 0, height = 0 } = await oriented.clone().metadata();
      const longest = Math.max(width, height);
      // Small pictures (a webcam frame, a phone photo of the whole page) are enlarged: tesseract reads their small
      // print far better at 2400 px; a page already scanned at ~200 dpi is read as it is.
      const side = Math.min(width, height) >= PROOF_MIN_WIDTH ? Math.min(longest, PROOF_MAX_SIDE) : Math.min(PROOF_MAX_SIDE, longest * PROOF_MAX_ENLARGEMENT);
      return await oriented
        .greyscale()
        .resize({ width: Math.round(side), height: Math.round(side), fit: 'inside' })
        .png()
        .toBuffer();
    } catch (error) {
      throw new OcrImageError(`image could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private readProofPng(png: Buffer): Promise<Omit<ProofOcrResult, 'timingsMs'>> {
    return readProofPage(this.pool, png);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close();
  }

  private straighten(image: Buffer, quarterTurns: number): Promise<StraightenedCard> {
    return straighten(image, { cardWidth: this.cardWidth, quarterTurns }).catch((error: unknown) => {
      throw new OcrImageError(`image could not be read: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /**
   * Document type and side: the MRZ, looked for in every orientation of the card, settles them when it names a
   * document; otherwise the header words (and the whole card's when the header says nothing) on the card turned
   * as its MRZ reads.
   */
  private async identify(card: StraightenedCard, input: OcrInput, lookForMrz = true): Promise<{ classification: Classification; mrz: MrzResult | null; card: StraightenedCard; upsideDown?: boolean }> {
    let header: string | undefined;
    if (lookForMrz && input.side === 'front' && input.passportHint !== true) {
      // A front that names itself an INE/IFE in its header carries no MRZ: the header (one small read) settles the
      // type and, read on the card turned half round when the first look finds nothing, the orientation; the MRZ
      // search in every quarter turn (several reads of long bands) is left for the documents that may carry one.
      header = await this.readHeader(card);
      const upright = classify({ text: header, mrzLines: null, declaredSide: input.side });
      if (upright.documentType === 'INE') return { classification: upright, mrz: null, card };
      const turned = turnCard(card, 2);
      const turnedClass = classify({ text: await this.readHeader(turned), mrzLines: null, declaredSide: input.side });
      if (turnedClass.documentType === 'INE') return { classification: turnedClass, mrz: null, card: turned, upsideDown: true };
    }
    let oriented: { card: StraightenedCard; mrz: MrzResult | null } = lookForMrz
      ? await readMrzAnyOrientation(this.pool, card, input.side === 'back' || input.passportHint === true)
      : { card, mrz: null };
    // On a front, long rows of print (an INE G/H's bottom rows) can pass the locator and read as a zone with a
    // check digit right by chance: a zone that fails its check digits and names no document of ours settles
    // neither the card's orientation nor its type.
    if (input.side === 'front' && oriented.mrz && !oriented.mrz.valid && !mrzDocument(oriented.mrz.lines)) {
      oriented = { card, mrz: null };
    }
    const { mrz } = oriented;
    const given = { mrzLines: mrz?.lines ?? null, declaredSide: input.side, passportHint: input.passportHint };
    if (mrzDocument(given.mrzLines)) return { classification: classify({ text: '', ...given }), mrz, card: oriented.card };
    const headerText = header !== undefined && oriented.card === card ? header : input.side === 'front' || !mrz ? await this.readHeader(oriented.card) : '';
    let classification = classify({ text: headerText, ...given });
    // An MRZ of another document (a foreign ID card) settles it: its words would not make it one of ours.
    if (classification.documentType === 'UNKNOWN' && !mrz) {
      const png = await encodeGreyPng(oriented.card.grey, undefined, PAGE_SCALE);
      const page = await this.pool.readText(png, { segmentation: 'auto' });
      classification = classify({ text: page.text, ...given });
    }
    return { classification, mrz, card: oriented.card };
  }

  /**
   * Every field of the layout (codes also by the legacy engine), parsed; fields the parse flags, or whose
   * read looks doubtful, are read again from other renditions and the side parsed once more.
   */
  private async readSide(card: StraightenedCard, reader: DocumentReader, context: Pick<ParseInput, 'mrz' | 'today' | 'front'>): Promise<ParsedSide> {
    // Label-anchored readers read the whole card first; its labels say where each field is cut from.
    const tryInverted = reader.darkOnLight !== true;
    const page = reader.page ? await this.readPage(card, reader.page.scale, tryInverted) : undefined;
    const located = page && reader.locate ? reader.locate(page, card.grey.width, card.grey.height) : undefined;
    // Once the MRZ is known some readers need fewer fields (a foreign passport: none of the Mexican page's boxes).
    const wanted = reader.fieldsToRead?.(context.mrz) ?? reader.fields;
    const fields = wanted.map((f) => (located?.regions[f.key] ? { ...f, region: located.regions[f.key]! } : f));
    const firstPass = fields.filter((f) => !located?.skip.includes(f.key));
    const [firstReads, legacyReads, split] = await Promise.all([
      this.readFields(card, firstPass, FIRST_RENDITION, tryInverted),
      this.readCodes(
        card,
        firstPass.filter((f) => f.legacyToo),
      ),
      Promise.all(firstPass.filter((f) => f.splitLines).map(async (f) => [f.key, await this.readLineByLine(card, f)] as const)),
    ]);
    const reads: Record<string, RawRead> = { ...Object.fromEntries(fields.map((f) => [f.key, EMPTY_READ])), ...firstReads };
    const alternates: Record<string, RawRead[]> = {};
    for (const [key, read] of Object.entries(legacyReads)) alternates[key] = [read];
    for (const [key, read] of split) if (read.lines.length > 0) alternates[key] = [...(alternates[key] ?? []), read];
    const parseInput: ParseInput = { reads, alternates, card: card.grey, ...context, ...(page ? { page } : {}) };
    const first = reader.parse(parseInput);
    const retry = fields.filter((f) => f.retryOn?.some((w) => first.warnings.includes(w)) || needsAnotherLook(f, reads[f.key]!));
    if (retry.length === 0) return first;
    const renditions = await Promise.all(RETRY_RENDITIONS.map((r) => this.readFields(card, retry, r, tryInverted)));
    for (const field of retry) {
      alternates[field.key] = [...(alternates[field.key] ?? []), ...renditions.map((r) => r[field.key]!)];
    }
    return reader.parse(parseInput);
  }

  /**
   * The whole card read for its words, boxes given in card pixels. The card is cut in two at a row between
   * lines of print near its middle and the halves are read at once on two workers (the page read is the
   * longest single recognition of a front: about half the wall time on the machine's two cores).
   */
  private async readPage(card: StraightenedCard, scale: number, tryInverted: boolean): Promise<RawRead> {
    const { grey } = card;
    const cut = this.pageHalves ? blankRow(grey) : null;
    const bands =
      cut === null
        ? [{ top: 0, height: grey.height }]
        : [
            { top: 0, height: cut },
            { top: cut, height: grey.height - cut },
          ];
    const reads = await Promise.all(bands.map(async (band) => ({ band, read: await this.pool.readText(await encodeGreyPng(grey, band, scale), { segmentation: 'auto', tryInverted }) })));
    const lines: RawLine[] = [];
    for (const { band, read } of reads) {
      const box = (b: Box): Box => ({ x0: b.x0 / scale, y0: b.y0 / scale + band.top, x1: b.x1 / scale, y1: b.y1 / scale + band.top });
      for (const l of read.lines) lines.push({ ...l, box: box(l.box), words: l.words.map((w) => ({ ...w, box: box(w.box), symbols: [] })) });
    }
    return { text: reads.map((r) => r.read.text).join(''), lines };
  }

  /** A block field cut into its lines (line-bands.ts), each read as one line: one reading of all of them. */
  private async readLineByLine(card: StraightenedCard, field: FieldSpec): Promise<RawRead> {
    const { grey } = card;
    const bands = lineBands(grey, regionToPixels(field.region, grey.width, grey.height));
    const reads = await Promise.all(
      bands.map(async (band) => {
        const image = await fieldImage(grey, band);
        return image.inked ? this.pool.readText(image.png, { segmentation: 'line', adaptiveThreshold: false, tryInverted: false }) : EMPTY_READ;
      }),
    );
    // One line per band: the one with the most print (a sliver of the neighbour's may come as another).
    const lines = reads.flatMap((r) => [...r.lines].sort((a, b) => b.text.length - a.text.length).slice(0, 1));
    return { text: lines.map((l) => l.text).join('\n'), lines };
  }

  private async readHeader(card: StraightenedCard): Promise<string> {
    const { grey } = card;
    const png = await encodeGreyPng(grey, { top: HEADER.top, height: grey.height * HEADER.height }, HEADER.scale);
    return (await this.pool.readText(png, { segmentation: 'auto' })).text;
  }

  private async readCodes(card: StraightenedCard, fields: FieldSpec[]): Promise<Record<string, RawRead>> {
    const { grey } = card;
    const entries = await Promise.all(
      fields.map(async (field) => {
        const image = await fieldImage(grey, regionToPixels(field.region, grey.width, grey.height));
        const read = image.inked ? await this.pool.readCode(image.png, field.whitelist ?? '', field.adaptiveThreshold === true) : EMPTY_READ;
        return [field.key, read] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  private async readFields(card: StraightenedCard, fields: FieldSpec[], rendition: Rendition, tryInverted: boolean): Promise<Record<string, RawRead>> {
    const { grey } = card;
    const entries = await Promise.all(
      fields.map(async (field) => {
        const image = await fieldImage(grey, regionToPixels(field.region, grey.width, grey.height), {
          binarise: rendition.binarise ?? field.binarise === true,
          ...(rendition.level !== undefined ? { level: rendition.level } : {}),
          scale: rendition.scale,
        });
        const read = image.inked
          ? await this.pool.readText(image.png, {
              segmentation: field.segmentation,
              ...(field.whitelist ? { whitelist: field.whitelist } : {}),
              adaptiveThreshold: field.adaptiveThreshold === true,
              tryInverted,
            })
          : EMPTY_READ;
        return [field.key, read] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}

/** Starts every worker now; rejects clearly when language data or the wasm core is missing. */
export async function createOcrEngine(options: OcrEngineOptions = {}): Promise<OcrEngine> {
  const pool = await OcrPool.create({ textWorkers: options.textWorkers ?? 2 });
  return new TesseractOcrEngine(pool, options.cardWidth ?? 2000, options.now ?? (() => new Date()), options.pageHalves ?? false);
}
