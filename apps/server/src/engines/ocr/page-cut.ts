/**
 * Where a card can be cut in two for reading its halves at once: a row between lines of print near the middle,
 * found without OCR by counting ink runs per pixel row.
 */
import { otsuThreshold } from './card-detect.js';
import type { RawImage } from './homography.js';

/** Rows of the card searched for a cut between lines of print (shares of its height). */
const CUT_SEARCH = { from: 0.38, to: 0.62, window: 6 };
/** Ink runs per row (mean over the window) above which a row crosses print: no cut there. */
const CUT_MAX_RUNS = 4;

/**
 * A row near the middle of the card that crosses no line of print (fewest ink runs over a few rows: a gap
 * between lines, or rows across the holder's photo only), or null when every row there crosses print.
 */
export function blankRow(grey: RawImage): number | null {
  const { data, width, height } = grey;
  const threshold = Math.min(otsuThreshold({ data, width, height }), 140);
  const from = Math.floor(height * CUT_SEARCH.from);
  const to = Math.ceil(height * CUT_SEARCH.to);
  const runs: number[] = [];
  for (let y = from; y < to; y++) {
    let count = 0;
    let inInk = false;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const ink = data[p]! <= threshold;
      if (ink && !inInk) count++;
      inInk = ink;
    }
    runs.push(count);
  }
  let best: number | null = null;
  let bestRuns = Infinity;
  for (let i = 0; i + CUT_SEARCH.window <= runs.length; i++) {
    let sum = 0;
    for (let j = i; j < i + CUT_SEARCH.window; j++) sum += runs[j]!;
    const middle = from + i + CUT_SEARCH.window / 2;
    // The emptiest window; among equals, the one nearest the middle.
    if (sum < bestRuns || (sum === bestRuns && best !== null && Math.abs(middle - height / 2) < Math.abs(best - height / 2))) {
      bestRuns = sum;
      best = Math.round(middle);
    }
  }
  return best !== null && bestRuns / CUT_SEARCH.window <= CUT_MAX_RUNS ? best : null;
}
