import type { Rect, Size } from './geometry';

/**
 * Pure geometry of the crop/adjust screen. Everything is in source-image pixels; the screen converts
 * pointer movements with the preview's scale.
 */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** The smallest crop, as a share of the preview window on each axis... */
export const minCropShare = 0.2;

/** ...and never under the server's smallest accepted image (320x240), unless the capture itself is smaller. */
export const minCropPixels = { width: 320, height: 240 } as const;

/**
 * The part of the capture the preview shows: the initial crop enlarged `scale` times around its centre
 * (docs/flow.md §9 "capture preview scale 1.5"), shifted and clipped to stay inside the image.
 */
export function previewWindow(image: Size, crop: Rect, scale: number): Rect {
  const width = Math.min(image.width, crop.width * scale);
  const height = Math.min(image.height, crop.height * scale);
  const cx = crop.x + crop.width / 2;
  const cy = crop.y + crop.height / 2;
  const x = Math.min(Math.max(0, cx - width / 2), image.width - width);
  const y = Math.min(Math.max(0, cy - height / 2), image.height - height);
  return { x, y, width, height };
}

function minSize(bounds: Rect): Size {
  return {
    width: Math.min(bounds.width, Math.max(bounds.width * minCropShare, minCropPixels.width)),
    height: Math.min(bounds.height, Math.max(bounds.height * minCropShare, minCropPixels.height)),
  };
}

/** The crop kept inside bounds and at least the minimum size. */
export function normaliseCrop(rect: Rect, bounds: Rect): Rect {
  const min = minSize(bounds);
  const width = Math.min(bounds.width, Math.max(min.width, rect.width));
  const height = Math.min(bounds.height, Math.max(min.height, rect.height));
  const x = Math.min(Math.max(bounds.x, rect.x), bounds.x + bounds.width - width);
  const y = Math.min(Math.max(bounds.y, rect.y), bounds.y + bounds.height - height);
  return { x, y, width, height };
}

/** Dragging the crop: it moves as a whole and stops at the window's edges. */
export function moveCrop(rect: Rect, dx: number, dy: number, bounds: Rect): Rect {
  const x = Math.min(Math.max(bounds.x, rect.x + dx), bounds.x + bounds.width - rect.width);
  const y = Math.min(Math.max(bounds.y, rect.y + dy), bounds.y + bounds.height - rect.height);
  return { ...rect, x, y };
}

/** Dragging a corner: the opposite corner stays put; the crop keeps its minimum size and stays inside. */
export function resizeCrop(rect: Rect, corner: Corner, dx: number, dy: number, bounds: Rect): Rect {
  const min = minSize(bounds);
  let left = rect.x;
  let top = rect.y;
  let right = rect.x + rect.width;
  let bottom = rect.y + rect.height;
  if (corner === 'nw' || corner === 'sw') left = Math.min(Math.max(bounds.x, left + dx), right - min.width);
  else right = Math.max(Math.min(bounds.x + bounds.width, right + dx), left + min.width);
  if (corner === 'nw' || corner === 'ne') top = Math.min(Math.max(bounds.y, top + dy), bottom - min.height);
  else bottom = Math.max(Math.min(bounds.y + bounds.height, bottom + dy), top + min.height);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Keyboard step: 2% of the window, 10% with a larger step (PageUp/PageDown style). */
export const cropKeyStep = { small: 0.02, large: 0.1 } as const;

/**
 * Keyboard adjustment: arrows move the crop; with Shift they resize it from its bottom-right corner
 * (right/down grow, left/up shrink). Alt (or Option) gives the larger step. null for other keys.
 */
export function keyboardCrop(rect: Rect, key: string, modifiers: { shift: boolean; large: boolean }, bounds: Rect): Rect | null {
  const share = modifiers.large ? cropKeyStep.large : cropKeyStep.small;
  const stepX = bounds.width * share;
  const stepY = bounds.height * share;
  const delta: Record<string, [number, number]> = {
    ArrowLeft: [-stepX, 0],
    ArrowRight: [stepX, 0],
    ArrowUp: [0, -stepY],
    ArrowDown: [0, stepY],
  };
  const d = delta[key];
  if (!d) return null;
  return modifiers.shift ? resizeCrop(rect, 'se', d[0], d[1], bounds) : moveCrop(rect, d[0], d[1], bounds);
}

/** The crop as percentages of the window, for positioning it over the preview. */
export function cropPercentages(rect: Rect, window: Rect): { left: number; top: number; width: number; height: number } {
  return {
    left: ((rect.x - window.x) / window.width) * 100,
    top: ((rect.y - window.y) / window.height) * 100,
    width: (rect.width / window.width) * 100,
    height: (rect.height / window.height) * 100,
  };
}
