/** Boxes on the upright card: pixels as tesseract reports them, fractions as layouts are written. */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A region of the upright card in fractions of its width and height. */
export type Region = Box;

export function regionToPixels(region: Region, width: number, height: number): Box {
  return {
    x0: Math.max(0, Math.round(region.x0 * width)),
    y0: Math.max(0, Math.round(region.y0 * height)),
    x1: Math.min(width, Math.round(region.x1 * width)),
    y1: Math.min(height, Math.round(region.y1 * height)),
  };
}

export function boxWidth(box: Box): number {
  return box.x1 - box.x0;
}

export function boxHeight(box: Box): number {
  return box.y1 - box.y0;
}
