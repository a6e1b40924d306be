/** Axis-aligned rectangle in pixels of some image or element. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/**
 * Document formats the capture guide can draw (ISO/IEC 7810): ID-1 is the INE/IFE card and the DNI
 * (85.60 × 53.98 mm); ID-3 is a passport data page (125 × 88 mm).
 */
export const documentAspect = {
  id1: 85.6 / 53.98,
  id3: 125 / 88,
  /** A proof of address: a letter-size page held upright (8.5 × 11 in). */
  page: 8.5 / 11,
} as const;

export type DocumentFormat = keyof typeof documentAspect;

/** Share of the frame the guide may take: portrait frames (phones) leave a thin margin, landscape ones more. */
const maskFill = { portraitWidth: 0.9, landscapeWidth: 0.75, height: 0.8 } as const;

/**
 * The capture guide (the card-shaped cutout) in frame pixels, centred. The same rectangle drives the
 * overlay (an SVG whose viewBox is the frame), the on-device quality check and the initial crop, so what
 * the user lines up is exactly what is checked and cropped.
 */
export function documentMask(frame: Size, format: DocumentFormat = 'id1'): Rect {
  const aspect = documentAspect[format];
  const portrait = frame.height > frame.width;
  const maxWidth = frame.width * (portrait ? maskFill.portraitWidth : maskFill.landscapeWidth);
  const maxHeight = frame.height * maskFill.height;
  const width = Math.min(maxWidth, maxHeight * aspect);
  const height = width / aspect;
  return {
    x: Math.round((frame.width - width) / 2),
    y: Math.round((frame.height - height) / 2),
    width: Math.round(width),
    height: Math.round(height),
  };
}

/** Where content of `content` size lands inside `box` with object-fit: contain (centred, letterboxed). */
export function containRect(box: Size, content: Size): Rect {
  if (box.width <= 0 || box.height <= 0 || content.width <= 0 || content.height <= 0) {
    return { x: 0, y: 0, width: 0, height: 0 };
  }
  const scale = Math.min(box.width / content.width, box.height / content.height);
  const width = content.width * scale;
  const height = content.height * scale;
  return { x: (box.width - width) / 2, y: (box.height - height) / 2, width, height };
}

/** The rectangle scaled by sx, sy (e.g. from frame pixels to a downscaled analysis image). */
export function scaleRect(rect: Rect, sx: number, sy: number = sx): Rect {
  return { x: rect.x * sx, y: rect.y * sy, width: rect.width * sx, height: rect.height * sy };
}

/** Integer pixel rectangle covering `rect`, clipped to an image of `size`. */
export function pixelRect(rect: Rect, size: Size): Rect {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(size.width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(size.height, Math.ceil(rect.y + rect.height));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** The rectangle grown (or, with a negative fraction, shrunk) by a fraction of its size on every side. */
export function insetRect(rect: Rect, fraction: number): Rect {
  const dx = rect.width * fraction;
  const dy = rect.height * fraction;
  return { x: rect.x + dx, y: rect.y + dy, width: rect.width - 2 * dx, height: rect.height - 2 * dy };
}
