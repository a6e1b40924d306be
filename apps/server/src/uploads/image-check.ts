import sharp, { type Metadata } from 'sharp';
import { ContentRejectedError } from './content-error.js';

export interface ImageLimits {
  /** Orientation-free: the shorter side must reach minShortSide and the longer side minLongSide (320x240 or 240x320). */
  minShortSide: number;
  minLongSide: number;
  maxSide: number;
  /** Also the decoder's own limit, so a small file that expands to a huge bitmap (decompression bomb) is never decoded. */
  maxPixels: number;
}

export const defaultImageLimits: ImageLimits = { minShortSide: 240, minLongSide: 320, maxSide: 8192, maxPixels: 40_000_000 };

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
}

const corrupt = () => new ContentRejectedError('corrupt', 'The image is damaged or incomplete');

/**
 * Reads the header (dimensions, within limits) and then decodes the whole image at a small size: a truncated
 * or corrupt file fails here rather than in whatever later reads it.
 */
export async function checkImage(buffer: Buffer, limits: ImageLimits = defaultImageLimits): Promise<ImageInfo> {
  // 'error' fails on truncated and corrupt data; sharp's default ('warning') would also refuse the benign
  // warnings some cameras' JPEGs raise (extraneous bytes before a marker), which decode fine.
  const options = { limitInputPixels: limits.maxPixels, failOn: 'error' } as const;
  let metadata: Metadata;
  try {
    metadata = await sharp(buffer, options).metadata();
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) throw tooLarge(undefined, undefined, limits);
    throw corrupt();
  }
  const { width, height, format } = metadata;
  if (!width || !height) throw corrupt();
  if (Math.max(width, height) > limits.maxSide || width * height > limits.maxPixels) throw tooLarge(width, height, limits);
  if (Math.min(width, height) < limits.minShortSide || Math.max(width, height) < limits.minLongSide) {
    throw new ContentRejectedError('too_small', `The image is ${width}x${height} pixels; at least ${limits.minLongSide}x${limits.minShortSide} is required`);
  }
  try {
    await sharp(buffer, options).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw corrupt();
  }
  return { format, width, height };
}

function tooLarge(width: number | undefined, height: number | undefined, limits: ImageLimits): ContentRejectedError {
  const size = width && height ? `${width}x${height} pixels` : 'larger than the limit';
  const megapixels = Math.floor(limits.maxPixels / 1_000_000);
  return new ContentRejectedError('too_large', `The image is ${size}; at most ${limits.maxSide}x${limits.maxSide} and ${megapixels} megapixels are accepted`);
}
