/**
 * One page of a proof of address read on the pooled workers: the page's words with their boxes, the bill's
 * labels located among them and each value read where its label says (fields/proof-anchored.ts); the older
 * line-layout parse (fields/proof.ts) fills only the fields whose label was not found on the page.
 */
import sharp from 'sharp';
import { readAnchored, type PageLine, type RegionPass } from './fields/proof-anchored.js';
import { parseProof, type ProofFields, type ProofLine } from './fields/proof.js';
import { invertedTextRegions } from './inverted-text.js';
import type { Box } from './page.js';
import type { OcrPool, RawLine } from './pool.js';

/** Lines below this confidence are texture or background read as letters. */
const MIN_LINE_CONFIDENCE = 20;
/** A small picture (a screenshot, a webcam frame) is enlarged to this longest side before reading. */
const SMALL_PAGE_SIDE = 2000;
const ENLARGED_SIDE = 2400;
const MAX_ENLARGEMENT = 3;
/**
 * A value's region is read again enlarged (small print under a label) so that its label's letters would be this
 * high, at most twice: big bold print enlarged further is misread ('$607.68' read '$007.68').
 */
const REGION_SCALE = 2;
const REGION_LABEL_HEIGHT = 48;
const REGION_MAX_WIDTH = 2600;

/**
 * Tesseract joins words of two columns that share a baseline (the address block and the amount box beside it)
 * into one line: split a line where the gap between two words is wider than a few letter heights.
 */
export function columnSegments(line: RawLine): ProofLine[] {
  const segments: ProofLine[] = [];
  let current: RawLine['words'] = [];
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    segments.push({
      text: current.map((w) => w.text).join(' '),
      left: first.box.x0,
      top: Math.min(...current.map((w) => w.box.y0)),
      height: Math.max(...current.map((w) => w.box.y1 - w.box.y0)),
    });
    current = [];
  };
  for (const word of line.words) {
    const previous = current.at(-1);
    const letter = Math.max(1, line.box.y1 - line.box.y0);
    if (previous && word.box.x0 - previous.box.x1 > COLUMN_GAP_LETTERS * letter) flush();
    current.push(word);
  }
  flush();
  return segments;
}

const COLUMN_GAP_LETTERS = 1.2;

export interface ProofPageReading {
  fields: ProofFields;
  /** Lines of text found on the page (0: nothing legible). */
  lineCount: number;
}

/**
 * A page found on a camera photo and straightened is enlarged from a smaller picture and soft: tesseract's layout
 * analysis then runs the two columns of a bill together (the CFE bill's name and address merged with the service
 * number beside them, its 'Nombre y Domicilio' label lost). Stretching the contrast and sharpening the edges gives
 * the gutter back (generated CFE phone photos). Used as a second reading when the first misses part of the address:
 * on other layouts it can cut a line's first letters (docs/decisions.md "Bills photographed with a phone").
 */
export async function sharpenedPhotoPage(png: Buffer): Promise<Buffer> {
  return sharp(png).normalise().sharpen({ sigma: 2, m1: 2, m2: 4 }).png().toBuffer();
}

/** Reads a greyscale page PNG: labels first, the line layout as the fallback. */
export async function readProofPage(pool: OcrPool, input: Buffer): Promise<ProofPageReading> {
  const { width = 0, height = 0 } = await sharp(input).metadata();
  const longest = Math.max(width, height);
  const factor = longest > 0 && longest < SMALL_PAGE_SIDE ? Math.min(MAX_ENLARGEMENT, ENLARGED_SIDE / longest) : 1;
  const png =
    factor > 1
      ? await sharp(input)
          .resize({ width: Math.round(width * factor), kernel: 'lanczos3' })
          .png()
          .toBuffer()
      : input;
  const size = factor > 1 ? await sharp(png).metadata() : { width, height };
  const page = { width: size.width ?? 0, height: size.height ?? 0 };

  const read = await pool.readText(png, { segmentation: 'auto' });
  const kept = read.lines.filter((l) => l.confidence >= MIN_LINE_CONFIDENCE);
  const lines = kept.flatMap(columnSegments);
  const layout = parseProof(lines);

  const readRegion = async (region: Box, pass: RegionPass, labelHeight: number): Promise<PageLine[]> => {
    const w = region.x1 - region.x0;
    const scale = pass.asPrinted ? 1 : Math.min(REGION_SCALE, Math.max(1, REGION_LABEL_HEIGHT / Math.max(1, labelHeight)), REGION_MAX_WIDTH / Math.max(1, w));
    const crop = await sharp(png)
      .extract({ left: region.x0, top: region.y0, width: w, height: region.y1 - region.y0 })
      .resize({ width: Math.max(1, Math.round(w * scale)), kernel: 'lanczos3' })
      .extend({ top: 24, bottom: 24, left: 24, right: 24, background: '#ffffff' })
      .png()
      .toBuffer();
    return (await pool.readText(crop, { segmentation: pass.segmentation, adaptiveThreshold: pass.adaptiveThreshold })).lines;
  };
  const inverted = await readInvertedBands(pool, png, read.lines);
  const anchored = await readAnchored([...read.lines, ...inverted.lines], page, readRegion, inverted.bands);

  const fields: ProofFields = {};
  for (const [key, value] of Object.entries(layout) as Array<[keyof ProofFields, string]>) {
    if (!anchored.labelled.has(key)) fields[key] = value;
  }
  Object.assign(fields, anchored.fields);
  // Bills without a printed issue date (CFE) are dated by the end of their billed period.
  if (!anchored.fields.issueDate && anchored.fields.periodTo && !anchored.labelled.has('issueDate')) fields.issueDate = anchored.fields.periodTo;
  return { fields, lineCount: lines.length };
}

/** White space around and between the negated bands stacked into one image. */
const BAND_PAD = 24;
const BAND_GAP = 40;
/** Band print is small (headers of table columns): read twice its size. */
const BAND_SCALE = 2;
const MAX_BANDS = 12;

const centreIn = (b: Box, band: Box): boolean => {
  const x = (b.x0 + b.x1) / 2;
  const y = (b.y0 + b.y1) / 2;
  return x >= band.x0 && x < band.x1 && y >= band.y0 && y < band.y1;
};

/**
 * A band the page read already read (tesseract reads some light-on-dark print itself): sure words across half its
 * width. A band of several column headers read only in part is read again.
 */
function alreadyRead(band: Box, lines: readonly RawLine[]): boolean {
  const sure = lines.flatMap((l) => l.words).filter((w) => w.confidence >= 80 && /\p{L}{2}/u.test(w.text) && centreIn(w.box, band));
  return sure.reduce((sum, w) => sum + w.box.x1 - w.box.x0, 0) >= 0.5 * (band.x1 - band.x0);
}

/**
 * The page's light-on-dark bands (inverted-text.ts), negated and stacked into one image read once (one read, not
 * one per band), their words put back at their place on the page; each line carries its band. Every band found
 * is returned (also those the page read had read): a label on one heads that band's box.
 */
export async function readInvertedBands(pool: OcrPool, png: Buffer, pageLines: readonly RawLine[] = []): Promise<{ lines: PageLine[]; bands: Box[] }> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const found = invertedTextRegions({ data, width: info.width, height: info.height });
  const bands = found.filter((band) => !alreadyRead(band, pageLines)).slice(0, MAX_BANDS);
  if (bands.length === 0) return { lines: [], bands: found };
  const strips: Array<{ band: Box; top: number; input: Buffer }> = [];
  let top = BAND_PAD;
  for (const band of bands) {
    const w = band.x1 - band.x0;
    const h = band.y1 - band.y0;
    const input = await sharp(png)
      .extract({ left: band.x0, top: band.y0, width: w, height: h })
      .greyscale()
      .negate({ alpha: false })
      .normalise()
      .resize({ width: Math.round(w * BAND_SCALE), height: Math.round(h * BAND_SCALE), kernel: 'lanczos3' })
      .png()
      .toBuffer();
    strips.push({ band, top, input });
    top += Math.round(h * BAND_SCALE) + BAND_GAP;
  }
  const width = Math.round(Math.max(...bands.map((b) => b.x1 - b.x0)) * BAND_SCALE) + 2 * BAND_PAD;
  const stacked = await sharp({ create: { width, height: top - BAND_GAP + BAND_PAD, channels: 3, background: '#ffffff' } })
    .composite(strips.map((s) => ({ input: s.input, left: BAND_PAD, top: s.top })))
    .greyscale()
    .png()
    .toBuffer();
  const read = await pool.readText(stacked, { segmentation: 'sparse' });
  const lines: PageLine[] = [];
  for (const line of read.lines.filter((l) => l.confidence >= MIN_LINE_CONFIDENCE)) {
    const middle = (w: RawLine['words'][number]) => (w.box.y0 + w.box.y1) / 2;
    const inStrip = (s: (typeof strips)[number], y: number) => y >= s.top && y < s.top + (s.band.y1 - s.band.y0) * BAND_SCALE;
    const strip = strips.find((s) => inStrip(s, middle(line.words[0]!)));
    if (!strip) continue;
    const moved = (b: Box): Box => ({
      x0: Math.round((b.x0 - BAND_PAD) / BAND_SCALE) + strip.band.x0,
      x1: Math.round((b.x1 - BAND_PAD) / BAND_SCALE) + strip.band.x0,
      y0: Math.round((b.y0 - strip.top) / BAND_SCALE) + strip.band.y0,
      y1: Math.round((b.y1 - strip.top) / BAND_SCALE) + strip.band.y0,
    });
    const words = line.words.filter((w) => inStrip(strip, middle(w))).map((w) => ({ text: w.text, confidence: w.confidence, box: moved(w.box) }));
    if (words.length > 0) lines.push({ words, band: strip.band });
  }
  return { lines, bands: found };
}
