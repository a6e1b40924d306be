/** WCAG 2.x contrast helpers for the grantor's colours (DESIGN.md: contrast guard). */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export const black: Rgb = { r: 0, g: 0, b: 0 };
export const white: Rgb = { r: 255, g: 255, b: 255 };

/** Minimum contrast for normal text (WCAG 2.2 AA, 1.4.3). */
export const textContrast = 4.5;
/** Minimum contrast for focus indicators and other non-text UI (WCAG 2.2 AA, 1.4.11). */
export const uiContrast = 3;

/** Parses #rgb, #rrggbb and rgb(r, g, b); null for anything else (names, gradients, injections). */
export function parseColor(value: string | null | undefined): Rgb | null {
  const text = (value ?? '').trim().toLowerCase();
  let match = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (match) {
    const [r, g, b] = match.slice(1).map((h) => Number.parseInt(h + h, 16)) as [number, number, number];
    return { r, g, b };
  }
  match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(text);
  if (match) {
    const [r, g, b] = match.slice(1).map((h) => Number.parseInt(h, 16)) as [number, number, number];
    return { r, g, b };
  }
  match = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(text);
  if (match) {
    const [r, g, b] = match.slice(1).map(Number) as [number, number, number];
    if (r <= 255 && g <= 255 && b <= 255) return { r, g, b };
  }
  return null;
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The preferred foreground when it reaches `minimum` on `background`; otherwise black or white,
 * whichever contrasts more (one of them always reaches 4.5:1).
 */
export function readableOn(background: Rgb, preferred: Rgb, minimum = textContrast): Rgb {
  if (contrastRatio(preferred, background) >= minimum) return preferred;
  return contrastRatio(black, background) >= contrastRatio(white, background) ? black : white;
}
