/**
 * Reading the MRZ of an upright card: locate the band (OCR-free, else the bottom of the card), read it with
 * the legacy engine, fix the lines to their grid, repair by field layout and validate. When check digits
 * fail, the band is read again binarised, downscaled, flattened, and by the LSTM engine (plain and flattened),
 * and the best combination of lines is kept; when no combination verifies, the lines are mixed character by
 * character where the check digits can decide (mrz-mix.ts). The name line, which no check digit covers, is also read by the LSTM engine, whose letters
 * are kept when its layout of fillers matches.
 */
import sharp, { type Sharp } from 'sharp';
import { otsuThreshold } from './card-detect.js';
import type { RawImage } from './homography.js';
import { assembleMrz, checkMrz, correctByCheckDigits, countValidCheckDigits, mergeNameField, repairMrz, type MrzCheck, type MrzCorrection, type MrzFormat, type MrzTextLine } from './mrz-parse.js';
import { locateMrzBand, type MrzBand } from './mrz-locate.js';
import { verifiedMix } from './mrz-mix.js';
import { MRZ_ALPHABET, type OcrPool, type RawRead } from './pool.js';
import type { MrzReading } from './types.js';

export interface MrzResult extends MrzReading {
  located: boolean;
  attempts: number;
}

interface Variant {
  binarise: boolean;
  scale: number;
  /** The band divided by its own blurred background first (see `flattenBand`). */
  flatten?: boolean;
}

const FLATTENED: Variant = { binarise: false, scale: 1, flatten: true };
const VARIANTS: Variant[] = [{ binarise: false, scale: 1 }, { binarise: true, scale: 1 }, { binarise: false, scale: 0.6 }, FLATTENED];
const SIDE_MARGIN = 0.02;
const NAME_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<';

export interface Candidate {
  format: MrzFormat;
  lines: string[];
  check: MrzCheck;
  rows: Array<{ top: number; bottom: number }>;
  confidences: number[];
  /** Characters the check digits corrected (letter/digit confusions), when any. */
  corrections?: MrzCorrection[];
  /** The OCR's own lines of this reading, whitespace removed: witnesses when check digits allow two corrections. */
  texts?: string[];
}

/** Lines checked; when a check digit fails, corrected by the check digits if they settle it (mrz-parse.ts). */
function checkedLines(format: MrzFormat, lines: string[], confidences: number[], witnesses: string[] = []): Pick<Candidate, 'lines' | 'check' | 'corrections'> {
  const check = checkMrz(lines, confidences);
  if (check.valid) return { lines, check };
  const fixed = correctByCheckDigits(format, lines, witnesses);
  if (!fixed) return { lines, check };
  return { lines: fixed.lines, check: checkMrz(fixed.lines, confidences), corrections: fixed.corrections };
}

/** Where the MRZ should be when the locator finds nothing: the bottom third of an ID-1 card or passport page. */
function defaultBand(card: RawImage): MrzBand {
  const aspect = card.width / card.height;
  const share = aspect < 1.5 ? 0.3 : 0.36;
  return { top: Math.round(card.height * (1 - share)), bottom: card.height, lines: aspect < 1.5 ? 2 : 3 };
}

/**
 * A dim, soft zone (a page photographed under infrared light, a blurred low-resolution scan) loses its
 * characters' left half to either engine: the print barely darker than a background that itself fades to the
 * edges. Each pixel divided by a blur of its surroundings (sigma a tenth of a line's pitch, under a stroke's
 * length) keeps the strokes and levels the background.
 */
async function flattenBand(band: Sharp, width: number, height: number, lines: number): Promise<Sharp> {
  const grey = await band.clone().toColourspace('b-w').raw().toBuffer();
  const sigma = Math.max(2, height / Math.max(2, lines) / 10);
  const background = await sharp(grey, { raw: { width, height, channels: 1 } })
    .blur(sigma)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const flat = Buffer.alloc(grey.length);
  for (let i = 0; i < grey.length; i++) flat[i] = Math.min(255, Math.round((grey[i]! / Math.max(1, background[i]!)) * 235));
  return sharp(flat, { raw: { width, height, channels: 1 } });
}

async function bandPng(card: RawImage, band: MrzBand, variant: Variant): Promise<{ png: Buffer; left: number }> {
  const left = Math.round(card.width * SIDE_MARGIN);
  const width = card.width - 2 * left;
  const height = band.bottom - band.top;
  let pipeline = sharp(card.data, { raw: { width: card.width, height: card.height, channels: 1 } }).extract({ left, top: band.top, width, height });
  if (variant.flatten) pipeline = await flattenBand(pipeline, width, height, band.lines);
  if (variant.binarise) {
    const pixels = Buffer.alloc(width * height);
    for (let y = 0; y < height; y++) {
      const from = (band.top + y) * card.width + left;
      card.data.copy(pixels, y * width, from, from + width);
    }
    pipeline = pipeline.threshold(otsuThreshold({ data: pixels, width, height }));
  }
  if (variant.scale !== 1) pipeline = pipeline.resize({ width: Math.round(width * variant.scale) });
  return { png: await pipeline.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer(), left };
}

function textLines(read: RawRead, left: number, top: number, scale: number): MrzTextLine[] {
  return read.lines.map((line) => ({
    text: line.words.map((w) => w.text).join(''),
    y: top + (line.box.y0 + line.box.y1) / 2 / scale,
    top: top + line.box.y0 / scale,
    bottom: top + line.box.y1 / scale,
    glyphs: line.words.flatMap((w) => w.symbols.map((s) => ({ char: s.text, x: left + (s.box.x0 + s.box.x1) / 2 / scale, confidence: s.confidence }))),
  }));
}

function toCandidate(lines: MrzTextLine[], cardWidth: number): Candidate | null {
  const assembled = assembleMrz(lines, cardWidth);
  if (!assembled) return null;
  const repaired = repairMrz(assembled.format, assembled.lines);
  const { confidences } = assembled;
  const texts = lines.map((l) => l.text.replace(/\s+/g, ''));
  return { format: assembled.format, ...checkedLines(assembled.format, repaired, confidences), rows: assembled.rows, confidences, texts };
}

const score = (c: Candidate): number => (c.check.valid ? 1000 : 0) + countValidCheckDigits(c.check);

/** The best mix of lines across readings of the same zone (each line taken from any reading). */
function bestCombination(candidates: Candidate[]): Candidate {
  let best = candidates[0]!;
  const format = best.format;
  const same = candidates.filter((c) => c.format === format);
  const count = best.lines.length;
  // Every reading's own lines witness a correction the check digits cannot settle alone.
  const witnesses = candidates.flatMap((c) => c.texts ?? []);
  const choose = (index: number, picked: string[]): void => {
    if (index === count) {
      // Lines from different readings: the layout repair depends on line 1's issuer, so it runs again.
      const lines = repairMrz(format, picked);
      const candidate = { format, ...checkedLines(format, lines, best.confidences, witnesses), rows: best.rows, confidences: best.confidences };
      if (score(candidate) > score(best)) best = candidate;
      return;
    }
    const options = new Set(same.map((c) => c.lines[index]!));
    for (const option of options) choose(index + 1, [...picked, option]);
  };
  choose(0, []);
  return best.check.valid ? best : (mixedCombination(same, best) ?? best);
}

/**
 * When no mix of whole lines verifies, lines mixed character by character (mrz-mix.ts); the characters taken from
 * another reading than the best one are recorded as corrections (the check digits chose them).
 */
function mixedCombination(same: Candidate[], best: Candidate): Candidate | null {
  const lines = verifiedMix(
    best.format,
    same.map((c) => c.lines),
    best.lines,
  );
  if (!lines) return null;
  const corrections = lines.flatMap((line, index) => [...line].flatMap((as, column) => (best.lines[index]![column] === as ? [] : [{ line: index, column, read: best.lines[index]![column]!, as }])));
  return { format: best.format, lines, check: checkMrz(lines, best.confidences), rows: best.rows, confidences: best.confidences, corrections };
}

/** A first, single reading of a zone (the legacy engine on the plain band), cheap enough to try every orientation. */
export interface FirstMrzRead {
  band: MrzBand;
  located: boolean;
  candidate: Candidate | null;
}

function legacyRead(pool: OcrPool, card: RawImage, band: MrzBand, variant: Variant): Promise<Candidate | null> {
  return bandPng(card, band, variant).then(async ({ png, left }) => toCandidate(textLines(await pool.readMrz(png), left, band.top, variant.scale), card.width));
}

export async function firstMrzRead(pool: OcrPool, card: RawImage, located: MrzBand | null): Promise<FirstMrzRead> {
  const band = located ?? defaultBand(card);
  return { band, located: located !== null, candidate: await legacyRead(pool, card, band, VARIANTS[0]!) };
}

/** Whether a first read validated (no further reading needed but the names). */
export const firstReadValid = (first: FirstMrzRead): boolean => first.candidate?.check.valid === true;

/** Check digits verified by a first read (to rank orientations when none validates). */
export const firstReadScore = (first: FirstMrzRead): number => (first.candidate ? score(first.candidate) : -1);

/**
 * The zone read to the end from a first read: when its check digits fail, again binarised, downscaled and
 * by the LSTM engine, the best mix of lines kept; then the name line by the LSTM engine.
 */
export async function finishMrz(pool: OcrPool, card: RawImage, first: FirstMrzRead): Promise<MrzResult | null> {
  const { band } = first;
  const candidates: Candidate[] = first.candidate ? [first.candidate] : [];
  let attempts = 1;
  if (!first.candidate?.check.valid) {
    for (const variant of VARIANTS.slice(1)) {
      attempts++;
      const candidate = await legacyRead(pool, card, band, variant);
      if (candidate) candidates.push(candidate);
      if (candidate?.check.valid) break;
    }
  }
  // The LSTM engine fails differently from the legacy one (it may read a filler as K): one more witness, and
  // one more on the flattened band.
  for (const variant of [VARIANTS[0]!, FLATTENED]) {
    if (candidates.some((c) => c.check.valid)) break;
    attempts++;
    const { png, left } = await bandPng(card, band, variant);
    const read = await pool.readText(png, { segmentation: 'block', whitelist: MRZ_ALPHABET });
    const candidate = toCandidate(textLines(read, left, band.top, 1), card.width);
    if (candidate) candidates.push(candidate);
  }
  if (candidates.length === 0) return null;
  const best = candidates.length > 1 ? bestCombination(candidates) : candidates[0]!;
  const readings = candidates.filter((c) => c.format === best.format).map((c) => c.lines);
  const lines = await withNationalityWitness(pool, card, best, await withLstmNames(pool, card, best), readings);
  const check = lines === best.lines ? best.check : checkMrz(lines, best.confidences);
  return {
    format: best.format,
    lines,
    valid: check.valid,
    checkDigits: check.checkDigits,
    fields: check.fields,
    ...(best.corrections ? { corrections: best.corrections } : {}),
    located: first.located,
    attempts,
  };
}

/** `located` is the locator's band when the caller already ran it (null: not found). */
export async function readMrz(pool: OcrPool, card: RawImage, located: MrzBand | null = locateMrzBand(card)): Promise<MrzResult | null> {
  return finishMrz(pool, card, await firstMrzRead(pool, card, located));
}

/** One row of the zone read by the LSTM engine as a single line. */
async function lstmRow(pool: OcrPool, card: RawImage, row: { top: number; bottom: number }, whitelist: string): Promise<string> {
  const pad = Math.round((row.bottom - row.top) * 0.5);
  const top = Math.max(0, Math.floor(row.top - pad));
  const height = Math.min(card.height, Math.ceil(row.bottom + pad)) - top;
  const left = Math.round(card.width * SIDE_MARGIN);
  const png = await sharp(card.data, { raw: { width: card.width, height: card.height, channels: 1 } })
    .extract({ left, top, width: card.width - 2 * left, height })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
  const read = await pool.readText(png, { segmentation: 'line', whitelist });
  return read.text.replace(/\s+/g, '');
}

/**
 * The name line read again by the LSTM engine, its letters kept when its layout matches (no check digit
 * covers names).
 */
async function withLstmNames(pool: OcrPool, card: RawImage, mrz: Candidate): Promise<string[]> {
  const index = mrz.format === 'TD1' ? 2 : 0;
  const row = mrz.rows[index];
  if (!row) return mrz.lines;
  const text = await lstmRow(pool, card, row, NAME_ALPHABET);
  const line = mrz.lines[index]!;
  const offset = mrz.format === 'TD1' ? 0 : 5;
  const merged = mergeNameField(line.slice(offset), text.slice(offset));
  if (!merged) return mrz.lines;
  const lines = [...mrz.lines];
  lines[index] = line.slice(0, offset) + merged;
  return lines;
}

/**
 * No check digit covers the nationality. When the legacy engine's differs from the issuing state by one letter
 * (AUB beside AUS; O<< beside D<<), the LSTM engine reads the line again as a second witness: its reading is
 * taken when it finds the issuer's code at that place, unless another reading of the zone (`readings`) already has
 * it there. Any other code is kept as read.
 */
export async function withNationalityWitness(pool: OcrPool, card: RawImage, mrz: Candidate, lines: string[], readings: ReadonlyArray<readonly string[]> = []): Promise<string[]> {
  const [row, at] = mrz.format === 'TD1' ? [1, 15] : [1, 10];
  const issuer = lines[0]!.slice(2, 5);
  const read = lines[row]!.slice(at, at + 3);
  const differences = [...read].filter((c, i) => c !== issuer[i]).length;
  const place = mrz.rows[row];
  if (differences !== 1 || !/^[A-Z][A-Z<]{2}$/.test(issuer) || !place) return lines;
  const seen = readings.some((other) => other[row]?.slice(at, at + 3) === issuer);
  if (!seen) {
    const text = await lstmRow(pool, card, place, MRZ_ALPHABET);
    const found = text.indexOf(issuer, Math.max(0, at - 3));
    if (found < 0 || found > at + 3) return lines;
  }
  const out = [...lines];
  out[row] = lines[row]!.slice(0, at) + issuer + lines[row]!.slice(at + 3);
  return out;
}
