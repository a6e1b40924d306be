/**
 * One printed field cut from the upright card for OCR: padded with the card's own background (tesseract
 * misreads glyphs that touch the image edge), and skipped when it holds no print at all (an empty box).
 */
import sharp from 'sharp';
import type { RawImage } from './homography.js';
import type { Box } from './page.js';

export interface FieldImage {
  png: Buffer;
  /** False when nothing darker than the background is in the box. */
  inked: boolean;
}

/** Background level (a bright percentile) and the darkest level inside the box, from a sparse sample. */
function levels(card: RawImage, box: Box): { background: number; darkest: number } {
  const histogram = new Array<number>(256).fill(0);
  let samples = 0;
  for (let y = box.y0; y < box.y1; y += 2) {
    for (let x = box.x0; x < box.x1; x += 2) {
      histogram[card.data[y * card.width + x]!]!++;
      samples++;
    }
  }
  let seen = 0;
  let background = 255;
  let darkest = 255;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    // Ignore isolated specks: the darkest level that a few pixels reach.
    if (darkest === 255 && seen >= Math.max(3, samples * 0.002)) darkest = v;
    if (seen >= samples * 0.7) {
      background = v;
      break;
    }
  }
  return { background, darkest };
}

const MIN_CONTRAST = 30;

/**
 * The box narrowed to the columns that hold print (plus a margin): tesseract's layout analysis often
 * drops a short word followed by a long stretch of background, faint rules or guilloche.
 */
function inkColumns(card: RawImage, box: Box, threshold: number): Box {
  const height = box.y1 - box.y0;
  const minInk = Math.max(2, Math.round(height * 0.04));
  let first = -1;
  let last = -1;
  for (let x = box.x0; x < box.x1; x++) {
    let ink = 0;
    for (let y = box.y0; y < box.y1 && ink < minInk; y++) if (card.data[y * card.width + x]! < threshold) ink++;
    if (ink >= minInk) {
      if (first < 0) first = x;
      last = x;
    }
  }
  if (first < 0) return box;
  const margin = height;
  return { x0: Math.max(box.x0, first - margin), y0: box.y0, x1: Math.min(box.x1, last + 1 + margin), y1: box.y1 };
}

/**
 * `binarise` thresholds between ink and background (at `level`, 0 ink .. 1 background; lower keeps blurred
 * strokes thin): tesseract's own thresholding of a small blurred crop that is mostly background loses
 * the print (a lone 'H' reads as nothing).
 */
export async function fieldImage(card: RawImage, region: Box, options: { binarise?: boolean; level?: number; scale?: number } = {}): Promise<FieldImage> {
  const { background, darkest } = levels(card, region);
  const inked = background - darkest >= MIN_CONTRAST;
  const box = inked ? inkColumns(card, region, Math.round((background + darkest) / 2)) : region;
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const pad = Math.max(4, Math.round(height * 0.25));
  let pipeline = sharp(card.data, { raw: { width: card.width, height: card.height, channels: 1 } })
    .extract({ left: box.x0, top: box.y0, width, height })
    .extend({
      top: pad,
      bottom: pad,
      left: pad,
      right: pad,
      background: { r: background, g: background, b: background },
    });
  if (options.binarise) {
    pipeline = pipeline.threshold(Math.round(darkest + (background - darkest) * (options.level ?? 0.4)));
  }
  if (options.scale && options.scale !== 1) {
    pipeline = pipeline.resize({ width: Math.round((width + 2 * pad) * options.scale) });
  }
  const png = await pipeline.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
  return { png, inked };
}
