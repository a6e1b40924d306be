import { checkImage, defaultImageLimits, type ImageLimits } from './image-check.js';
import { checkPdf } from './pdf-check.js';
import type { UploadedFile } from './read-multipart.js';
import { isImageType } from './sniff.js';

export interface ContentInfo {
  width?: number;
  height?: number;
}

/**
 * Checks that an accepted file is usable: images decode within their size limits, PDFs are complete.
 * Throws ContentRejectedError. Videos are left to the engines that read them.
 */
export async function checkContent(file: UploadedFile, imageLimits: ImageLimits = defaultImageLimits): Promise<ContentInfo> {
  if (isImageType(file.sniffedType)) {
    const { width, height } = await checkImage(file.buffer, imageLimits);
    return { width, height };
  }
  if (file.sniffedType === 'application/pdf') checkPdf(file.buffer);
  return {};
}
