/**
 * OCR-free MRZ locator: in the lower part of the upright card, rows of print are found by counting ink
 * runs per pixel row; MRZ lines are the rows that are long (most of the card width) and dense (one run per
 * character at least), in a group of two or three evenly spaced lines at the bottom.
 */
import { otsuThreshold } from './card-detect.js';
import type { RawImage } from './homography.js';

export interface MrzBand {
  top: number;
  bottom: number;
  lines: number;
}

interface TextRow {
  top: number;
  bottom: number;
  runs: number;
  left: number;
  right: number;
  /** Widest stretch of columns without ink between left and right. */
  maxGap: number;
}

const SEARCH_FROM = 0.45;
const MIN_RUNS = 18;
/** Smallest MRZ line height as a share of the document's width (OCR-B on a TD3 page is ~0.019). */
const MIN_LINE_HEIGHT = 0.011;

export function rowsOfPrint(card: RawImage, searchFrom = SEARCH_FROM): TextRow[] {
  const { data, width, height } = card;
  const y0 = Math.floor(height * searchFrom);
  const x0 = Math.floor(width * 0.03);
  const x1 = Math.ceil(width * 0.97);
  const region = data.subarray(y0 * width, height * width);
  const threshold = Math.min(otsuThreshold({ data: region, width, height: height - y0 }), 140);
  const rows: TextRow[] = [];
  let current: TextRow | null = null;
  let gap = 0;
  for (let y = y0; y < height; y++) {
    let runs = 0;
    let left = -1;
    let right = -1;
    let inInk = false;
    const row = y * width;
    for (let x = x0; x < x1; x++) {
      const ink = data[row + x]! <= threshold;
      if (ink && !inInk) {
        runs++;
        if (left < 0) left = x;
      }
      if (ink) right = x;
      inInk = ink;
    }
    if (runs >= MIN_RUNS) {
      if (!current) current = { top: y, bottom: y + 1, runs: 0, left, right, maxGap: 0 };
      current.bottom = y + 1;
      current.runs = Math.max(current.runs, runs);
      current.left = Math.min(current.left, left);
      current.right = Math.max(current.right, right);
      gap = 0;
    } else if (current && ++gap > 2) {
      rows.push(current);
      current = null;
    }
  }
  if (current) rows.push(current);
  for (const r of rows) r.maxGap = widestInkGap(card, r, threshold);
  return rows;
}

function widestInkGap(card: RawImage, row: TextRow, threshold: number): number {
  const { data, width } = card;
  let widest = 0;
  let gap = 0;
  for (let x = row.left; x <= row.right; x++) {
    let ink = 0;
    for (let y = row.top; y < row.bottom && ink < 2; y++) if (data[y * width + x]! <= threshold) ink++;
    if (ink >= 2) {
      widest = Math.max(widest, gap);
      gap = 0;
    } else {
      gap++;
    }
  }
  return widest;
}

/**
 * The vertical band holding the MRZ, or null when the card shows no MRZ-like group of lines. `searchFrom`
 * (a fraction of the height) skips the top of the card; 0 searches all of it (two cards or a passport spread
 * in one photo, where the zone may sit anywhere).
 */
export function locateMrzBand(card: RawImage, searchFrom = SEARCH_FROM): MrzBand | null {
  const { width, height } = card;
  // Character height against the width, which the document fixes (a photo of two cards stacked is twice as tall).
  const minHeight = width * MIN_LINE_HEIGHT;
  // MRZ characters sit on a fixed 2.54 mm pitch: a long row with no wide blank stretch.
  const lines = rowsOfPrint(card, searchFrom).filter((r) => r.bottom - r.top >= minHeight && (r.right - r.left) / width >= 0.6 && r.runs >= MIN_RUNS + 7 && r.maxGap <= width * 0.045);
  // The lowest group that fits (print below an MRZ is another document in the same photo, or its back).
  for (let end = lines.length; end >= 2; end--) {
    const band = groupBand(lines, end, width, height);
    if (band) return band;
  }
  return null;
}

/** The group of three (else two) MRZ-like lines ending at `end`, when they are even in height and pitch. */
function groupBand(lines: TextRow[], end: number, width: number, height: number): MrzBand | null {
  for (let count = 3; count >= 2; count--) {
    if (end < count) continue;
    const group = lines.slice(end - count, end);
    const heights = group.map((l) => l.bottom - l.top);
    const maxH = Math.max(...heights);
    const minH = Math.min(...heights);
    if (minH < maxH * 0.6) continue;
    const pitches = group.slice(1).map((l, i) => l.top - group[i]!.top);
    if (pitches.some((p) => p > maxH * 3.2 || p < maxH)) continue;
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const margin = maxH * 0.8;
    // An ID-1 card's MRZ has three lines: with two found, the first was too faint (glare) to count; the band
    // then reaches one line higher so the reader still sees it.
    const reach = count === 2 && width / height > 1.5 ? (pitches[0] ?? 0) : 0;
    return {
      top: Math.max(0, Math.floor(first.top - margin - reach)),
      bottom: Math.min(height, Math.ceil(last.bottom + margin)),
      lines: count,
    };
  }
  return null;
}
