/**
 * The holder's photo on the front, cropped by layout from the straightened card in colour (the face
 * engine re-detects the face inside it, so the crop is padded generously rather than tight).
 */
import { cropUpright, type StraightenedCard } from './geometry.js';
import type { Region } from './page.js';

const MAX_WIDTH = 640;

export async function cropFace(card: StraightenedCard, photo: Region): Promise<Buffer> {
  const box = { left: photo.x0, top: photo.y0, width: photo.x1 - photo.x0, height: photo.y1 - photo.y0 };
  return cropUpright(card, box, MAX_WIDTH);
}
