/**
 * Reading the MRZ of an upright card: locate the band (OCR-free, else the bottom of the card), read it with
 * the legacy engine, fix the lines to their grid, repair by field layout and validate. When check digits
 * fail, the band is read again binarised, downscaled, and by the LSTM engine, and the best combination of
 * lines is kept. The name line, which no check digit covers, is also read by the LSTM engine, whose letters
 * are kept when its layout of fillers matches.
 */
import sharp from 'sharp';
import { otsuThreshold } from './card-detect.js';
import type { RawImage } from './homography.js';
import {
  assembleMrz, checkMrz, countValidCheckDigits, mergeNameField, repairMrz, type MrzCheck, type MrzFormat,
  type MrzTextLine,
} from './mrz-parse.js';
import { locateMrzBand, type MrzBand } from './mrz-locate.js';
import { MRZ_ALPHABET, type OcrPool, type RawRead } from './pool.js';
import type { MrzReading } from './types.js';

export interface MrzResult extends MrzReading {
  fields: MrzCheck['fields'];
  located: boolean;
  attempts: number;
}

interface Variant {
  binarise: boolean;
  scale: number;
}

const VARIANTS: Variant[] = [
  { binarise: false, scale: 1 },
  { binarise: true, scale: 1 },
  { binarise: false, scale: 0.6 },
];
const SIDE_MARGIN = 0.02;
const NAME_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ<';

interface Candidate {
  format: MrzFormat;
  lines: string[];
  check: MrzCheck;
  rows: Array<{ top: number; bottom: number }>;
}

/** Where the MRZ should be when the locator finds nothing: the bottom third of an ID-1 card or passport page. */
function defaultBand(card: RawImage): MrzBand {
  const aspect = card.width / card.height;
  const share = aspect < 1.5 ? 0.3 : 0.36;
  return { top: Math.round(card.height * (1 - share)), bottom: card.height, lines: aspect < 1.5 ? 2 : 3 };
}

async function bandPng(card: RawImage, band: MrzBand, variant: Variant): Promise<{ png: Buffer; left: number }> {
  const left = Math.round(card.width * SIDE_MARGIN);
  const width = card.width - 2 * left;
  const height = band.bottom - band.top;
  let pipeline = sharp(card.data, { raw: { width: card.width, height: card.height, channels: 1 } })
    .extract({ left, top: band.top, width, height });
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
    glyphs: line.words.flatMap((w) =>
      w.symbols.map((s) => ({ char: s.text, x: left + (s.box.x0 + s.box.x1) / 2 / scale, confidence: s.confidence }))),
  }));
}

function toCandidate(lines: MrzTextLine[], cardWidth: number): Candidate | null {
  const assembled = assembleMrz(lines, cardWidth);
  if (!assembled) return null;
  const repaired = repairMrz(assembled.format, assembled.lines);
  return { format: assembled.format, lines: repaired, check: checkMrz(repaired), rows: assembled.rows };
}

const score = (c: Candidate): number => (c.check.valid ? 1000 : 0) + countValidCheckDigits(c.check);

/** The best mix of lines across readings of the same zone (each line taken from any reading). */
function bestCombination(candidates: Candidate[]): Candidate {
  let best = candidates[0]!;
  const format = best.format;
  const same = candidates.filter((c) => c.format === format);
  const count = best.lines.length;
  const choose = (index: number, picked: string[]): void => {
    if (index === count) {
      // Lines from different readings: the layout repair depends on line 1's issuer, so it runs again.
      const lines = repairMrz(format, picked);
      const candidate = { format, lines, check: checkMrz(lines), rows: best.rows };
      if (score(candidate) > score(best)) best = candidate;
      return;
    }
    const options = new Set(same.map((c) => c.lines[index]!));
    for (const option of options) choose(index + 1, [...picked, option]);
  };
  choose(0, []);
  return best;
}

/** `located` is the locator's band when the caller already ran it (null: not found). */
export async function readMrz(
  pool: OcrPool,
  card: RawImage,
  located: MrzBand | null = locateMrzBand(card),
): Promise<MrzResult | null> {
  const band = located ?? defaultBand(card);
  const legacy = async (variant: Variant): Promise<Candidate | null> => {
    const { png, left } = await bandPng(card, band, variant);
    return toCandidate(textLines(await pool.readMrz(png), left, band.top, variant.scale), card.width);
  };
  const lstm = async (): Promise<Candidate | null> => {
    const { png, left } = await bandPng(card, band, { binarise: false, scale: 1 });
    const read = await pool.readText(png, { segmentation: 'block', whitelist: MRZ_ALPHABET });
    return toCandidate(textLines(read, left, band.top, 1), card.width);
  };
  const candidates: Candidate[] = [];
  let attempts = 0;
  for (const variant of VARIANTS) {
    attempts++;
    const candidate = await legacy(variant);
    if (candidate) candidates.push(candidate);
    if (candidate?.check.valid) break;
  }
  // The LSTM engine fails differently from the legacy one (it may read a filler as K): one more witness.
  if (!candidates.some((c) => c.check.valid)) {
    attempts++;
    const candidate = await lstm();
    if (candidate) candidates.push(candidate);
  }
  if (candidates.length === 0) return null;
  const best = candidates.length > 1 ? bestCombination(candidates) : candidates[0]!;
  const lines = await withLstmNames(pool, card, best);
  const check = lines === best.lines ? best.check : checkMrz(lines);
  return {
    format: best.format,
    lines,
    valid: check.valid,
    checkDigits: check.checkDigits,
    fields: check.fields,
    located: located !== null,
    attempts,
  };
}

/**
 * The name line read again by the LSTM engine, its letters kept when its layout matches (no check digit
 * covers names).
 */
async function withLstmNames(pool: OcrPool, card: RawImage, mrz: Candidate): Promise<string[]> {
  const index = mrz.format === 'TD3' ? 0 : 2;
  const row = mrz.rows[index];
  if (!row) return mrz.lines;
  const pad = Math.round((row.bottom - row.top) * 0.5);
  const top = Math.max(0, Math.floor(row.top - pad));
  const height = Math.min(card.height, Math.ceil(row.bottom + pad)) - top;
  const left = Math.round(card.width * SIDE_MARGIN);
  const png = await sharp(card.data, { raw: { width: card.width, height: card.height, channels: 1 } })
    .extract({ left, top, width: card.width - 2 * left, height })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
  const read = await pool.readText(png, { segmentation: 'line', whitelist: NAME_ALPHABET });
  const line = mrz.lines[index]!;
  const offset = mrz.format === 'TD3' ? 5 : 0;
  const text = read.text.replace(/\s+/g, '');
  const merged = mergeNameField(line.slice(offset), mrz.format === 'TD3' ? text.slice(offset) : text);
  if (!merged) return mrz.lines;
  const lines = [...mrz.lines];
  lines[index] = line.slice(0, offset) + merged;
  return lines;
}
