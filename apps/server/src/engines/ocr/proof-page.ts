/**
 * One page of a proof of address read on the pooled workers: the page's words with their boxes, the bill's
 * labels located among them and each value read where its label says (fields/proof-anchored.ts); the older
 * line-layout parse (fields/proof.ts) fills only the fields whose label was not found on the page.
 */
import sharp from 'sharp';
import { readAnchored, type PageLine, type RegionPass } from './fields/proof-anchored.js';
import { parseProof, type ProofFields, type ProofLine } from './fields/proof.js';
import type { Box } from './page.js';
import type { OcrPool, RawLine } from './pool.js';

/** Lines below this confidence are texture or background read as letters. */
const MIN_LINE_CONFIDENCE = 20;
/** A small picture (a screenshot, a webcam frame) is enlarged to this longest side before reading. */
const SMALL_PAGE_SIDE = 2000;
const ENLARGED_SIDE = 2400;
const MAX_ENLARGEMENT = 3;
/** A value's region is read again enlarged this much (small print under a label). */
const REGION_SCALE = 2;
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

/** Reads a greyscale page PNG: labels first, the line layout as the fallback. */
export async function readProofPage(pool: OcrPool, input: Buffer): Promise<ProofPageReading> {
  const { width = 0, height = 0 } = await sharp(input).metadata();
  const longest = Math.max(width, height);
  const factor = longest > 0 && longest < SMALL_PAGE_SIDE ? Math.min(MAX_ENLARGEMENT, ENLARGED_SIDE / longest) : 1;
  const png = factor > 1
    ? await sharp(input).resize({ width: Math.round(width * factor), kernel: 'lanczos3' }).png().toBuffer()
    : input;
  const size = factor > 1 ? await sharp(png).metadata() : { width, height };
  const page = { width: size.width ?? 0, height: size.height ?? 0 };

  const read = await pool.readText(png, { segmentation: 'auto' });
  const kept = read.lines.filter((l) => l.confidence >= MIN_LINE_CONFIDENCE);
  const lines = kept.flatMap(columnSegments);
  const layout = parseProof(lines);

  const readRegion = async (region: Box, pass: RegionPass): Promise<PageLine[]> => {
    const w = region.x1 - region.x0;
    const scale = Math.min(REGION_SCALE, REGION_MAX_WIDTH / Math.max(1, w));
    const crop = await sharp(png)
      .extract({ left: region.x0, top: region.y0, width: w, height: region.y1 - region.y0 })
      .resize({ width: Math.max(1, Math.round(w * scale)), kernel: 'lanczos3' })
      .extend({ top: 24, bottom: 24, left: 24, right: 24, background: '#ffffff' })
      .png()
      .toBuffer();
    return (await pool.readText(crop, { ...pass })).lines;
  };
  const anchored = await readAnchored(read.lines, page, readRegion);

  const fields: ProofFields = {};
  for (const [key, value] of Object.entries(layout) as Array<[keyof ProofFields, string]>) {
    if (!anchored.labelled.has(key)) fields[key] = value;
  }
  Object.assign(fields, anchored.fields);
  // Bills without a printed issue date (CFE) are dated by the end of their billed period.
  if (!anchored.fields.issueDate && anchored.fields.periodTo && !anchored.labelled.has('issueDate')) fields.issueDate = anchored.fields.periodTo;
  return { fields, lineCount: lines.length };
}
