/**
 * Straightening: EXIF orientation, finding the card on a dark surface, perspective correction onto an
 * upright card image of a fixed width (greyscale, what tesseract reads), plus the mapping kept for colour
 * crops (the holder's photo).
 */
import sharp from 'sharp';
import { detectCard, textBlockExtent, type GreyImage } from './card-detect.js';
import { quadSize, scaleQuad, topEdgeAngleDeg, warpQuad, warpQuadYielding, type Quad, type RawImage } from './homography.js';
import type { OcrResult } from './types.js';

/** Width/height of the documents read here: ID-1 cards, the ID-3 passport page, the FMM form. */
const KNOWN_ASPECTS = [85.6 / 54, 125 / 88, 8.5 / 5.5];
const DETECTION_WIDTH = 640;

export interface StraightenOptions {
  /** Width of the upright card image handed to OCR. */
  cardWidth: number;
  /** Quarter turns to read the card at (2: a card photographed upside down). */
  quarterTurns?: number;
}

export interface StraightenedCard {
  /** Upright card, greyscale, `cardWidth` wide. */
  grey: RawImage;
  /** The oriented (EXIF-applied, maybe downscaled) colour photo and the card's corners in it. */
  source: RawImage;
  quad: Quad;
  geometry: OcrResult['geometry'];
}

function snapAspect(aspect: number): number {
  let best = aspect;
  let bestRatio = Infinity;
  for (const known of KNOWN_ASPECTS) {
    const ratio = Math.abs(Math.log(aspect / known));
    if (ratio < bestRatio) {
      bestRatio = ratio;
      best = known;
    }
  }
  return bestRatio < Math.log(1.1) ? best : aspect;
}

function toGrey(rgb: RawImage): RawImage {
  const { data, width, height, channels } = rgb;
  const out = Buffer.alloc(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    out[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  }
  return { data: out, width, height, channels: 1 };
}

async function orientedSize(image: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(image).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) throw new Error('image has no dimensions');
  // EXIF orientations 5-8 swap the axes.
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

async function smallGrey(image: Buffer, width: number): Promise<GreyImage> {
  const { data, info } = await sharp(image).rotate().greyscale().resize({ width, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function straighten(image: Buffer, options: StraightenOptions): Promise<StraightenedCard> {
  const size = await orientedSize(image);
  const small = await smallGrey(image, Math.min(DETECTION_WIDTH, size.width));
  const detection = detectCard(small);
  // No card edge in sight (the card fills the frame, or the surface is as bright as the card): crop to where the
  // print is rather than read the whole frame.
  const block = detection ? null : textBlockExtent(small);
  await new Promise<void>((resolve) => setImmediate(resolve));
  const toFull = size.width / small.width;
  const located = detection ?? block;
  const found: Quad = located
    ? scaleQuad(located.quad, toFull)
    : [
        [0, 0],
        [size.width, 0],
        [size.width, size.height],
        [0, size.height],
      ];
  // Cards are read landscape: a portrait card is turned a quarter first.
  const portrait = quadSize(found).height > quadSize(found).width;
  const fullQuad = turnQuad(found, (portrait ? 1 : 0) + (options.quarterTurns ?? 0));

  // Decode at a size where the card is no more than ~1.3x the output width, so the bilinear warp never
  // skips source pixels (aliasing the fine print).
  const cardPixels = quadSize(fullQuad).width;
  const decodeScale = Math.min(1, (options.cardWidth * 1.3) / cardPixels);
  const decodeWidth = Math.max(2, Math.round(size.width * decodeScale));
  const { data, info } = await sharp(image).rotate().resize({ width: decodeWidth }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const source: RawImage = { data, width: info.width, height: info.height, channels: info.channels };
  const quad = scaleQuad(fullQuad, info.width / size.width, info.height / size.height);

  const { width: qw, height: qh } = quadSize(quad);
  const aspect = detection ? snapAspect(qw / qh) : qw / qh;
  const outWidth = options.cardWidth;
  const outHeight = Math.round(outWidth / aspect);
  const grey = await warpQuadYielding(toGrey(source), quad, outWidth, outHeight);
  const rotationDeg = detection ? Math.round(topEdgeAngleDeg(quad) * 10) / 10 : 0;
  return { grey, source, quad, geometry: { cardFound: detection !== null, rotationDeg, cropped: located !== null } };
}

/** The corners relabelled so the card is read `turns` quarter turns further round (2: upside down). */
function turnQuad(quad: Quad, turns: number): Quad {
  const shift = ((turns % 4) + 4) % 4;
  return [0, 1, 2, 3].map((i) => quad[(i + shift) % 4]!) as Quad;
}

/**
 * Colour crop of a region of the upright card (fractions of its width and height) as PNG, warped straight
 * from the photo at no more than `maxWidth` pixels wide.
 */
export async function cropUpright(card: StraightenedCard, box: { left: number; top: number; width: number; height: number }, maxWidth: number): Promise<Buffer> {
  // The crop is sampled on a grid of the card at a scale giving `maxWidth` for this region.
  const scale = Math.min(1, maxWidth / (box.width * card.grey.width));
  const ow = Math.round(card.grey.width * scale);
  const oh = Math.round(card.grey.height * scale);
  const left = Math.max(0, Math.round(box.left * ow));
  const top = Math.max(0, Math.round(box.top * oh));
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(ow - left, Math.round(box.width * ow))),
    height: Math.max(1, Math.min(oh - top, Math.round(box.height * oh))),
  };
  const rgb = warpQuad(card.source, card.quad, ow, oh, region);
  return sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: rgb.channels as 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** PNG (greyscale) of a raw image or of a band of it, for tesseract. */
export async function encodeGreyPng(image: RawImage, band?: { top: number; height: number; left?: number; width?: number }, scale = 1): Promise<Buffer> {
  const raw = { width: image.width, height: image.height, channels: image.channels as 1 };
  let pipeline = sharp(image.data, { raw });
  if (band) {
    const left = Math.max(0, Math.round(band.left ?? 0));
    const top = Math.max(0, Math.round(band.top));
    pipeline = pipeline.extract({
      left,
      top,
      width: Math.min(image.width - left, Math.round(band.width ?? image.width)),
      height: Math.min(image.height - top, Math.round(band.height)),
    });
  }
  if (scale !== 1) pipeline = pipeline.resize({ width: Math.round((band?.width ?? image.width) * scale) });
  return pipeline.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
}
