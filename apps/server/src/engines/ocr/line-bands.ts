/**
 * A block of print cut into its lines by the rows where the ink thins out. The E/F cards print the three name lines
 * a few pixels apart (an Ñ's tilde touches the line above); on a phone photo tesseract's own line finding merges two
 * of them into one unreadable line. Cut at the thin rows, each line is read on its own (docs/decisions.md "The E/F
 * layout from the issuer's specimen").
 */
import type { RawImage } from './homography.js';
import type { Box } from './page.js';

export const lineBandRules = {
  /** A row belongs to a line of print when its ink reaches this share of the fullest row's. */
  inkShare: 0.2,
  /** Lines shorter than this share of the tallest one are specks or an accent, joined to their neighbour. */
  minHeightShare: 0.35,
  /** Each band keeps this share of its height above and below (accents, descenders). */
  margin: 0.2,
  /** A column inked in more than this share of the rows is a vertical rule, not print. */
  ruleShare: 0.7,
  /** A band starts this share of its line's height above its cut (the mark of an accent or a tilde). */
  reachAbove: 0.3,
  /** A run this many times the median run's height holds two lines or more. */
  tallShare: 1.6,
} as const;

/**
 * Ink per row of the box (pixels darker than halfway between the box's paper and its darkest print), over the
 * columns that are not a vertical rule (the photo's edge, a frame: inked in most rows).
 */
interface InkMap {
  inked: (x: number, y: number) => boolean;
  /** The columns that are not a vertical rule. */
  columns: number[];
}

/** Which pixels of the box are ink (darker than halfway between its paper and its darkest print), and which columns are print. */
function inkMap(card: RawImage, box: Box): InkMap {
  const values: number[] = [];
  for (let y = box.y0; y < box.y1; y += 2) for (let x = box.x0; x < box.x1; x += 2) values.push(card.data[y * card.width + x]!);
  values.sort((a, b) => a - b);
  const darkest = values[Math.floor(values.length * 0.01)] ?? 0;
  const paper = values[Math.floor(values.length * 0.7)] ?? 255;
  const threshold = (darkest + paper) / 2;
  const inked = (x: number, y: number) => card.data[y * card.width + x]! < threshold;
  const columns: number[] = [];
  for (let x = box.x0; x < box.x1; x += 1) {
    let ink = 0;
    for (let y = box.y0; y < box.y1; y += 1) if (inked(x, y)) ink += 1;
    if (ink < lineBandRules.ruleShare * (box.y1 - box.y0)) columns.push(x);
  }
  return { inked, columns };
}

/** Ink per row over the print columns, smoothed over three rows (a thin stroke's gap inside a letter is no line gap). */
function rowInk(box: Box, { inked, columns }: InkMap): number[] {
  const rows: number[] = [];
  for (let y = box.y0; y < box.y1; y += 1) {
    let ink = 0;
    for (const x of columns) if (inked(x, y)) ink += 1;
    rows.push(ink);
  }
  return rows.map((_, i) => (rows[Math.max(0, i - 1)]! + rows[i]! + rows[Math.min(rows.length - 1, i + 1)]!) / 3);
}

/** The columns from the first to the last holding print (rules left out), with a margin of a few pixels. */
function printColumns(box: Box, { inked, columns }: InkMap): [number, number] {
  const printed = columns.filter((x) => {
    for (let y = box.y0; y < box.y1; y += 1) if (inked(x, y)) return true;
    return false;
  });
  if (printed.length === 0) return [box.x0, box.x1];
  const margin = Math.round((box.y1 - box.y0) * 0.05) + 4;
  return [Math.max(box.x0, printed[0]! - margin), Math.min(box.x1, printed[printed.length - 1]! + 1 + margin)];
}

/**
 * Runs taller than `tallShare` times the median one are lines touching (a Q's tail, a tilde): cut at their thinnest
 * rows, one line's height apart.
 */
function splitTall(runs: Array<[number, number]>, rows: number[]): Array<[number, number]> {
  const heights = runs.map(([a, b]) => b - a).sort((a, b) => a - b);
  const typical = heights[Math.floor(heights.length / 2)] ?? 0;
  return runs.flatMap(([a, b]): Array<[number, number]> => {
    if (!(typical > 0) || b - a < lineBandRules.tallShare * typical) return [[a, b]];
    const parts = Math.round((b - a) / typical);
    const cuts: number[] = [];
    for (let k = 1; k < parts; k += 1) {
      const centre = a + ((b - a) * k) / parts;
      let best = Math.round(centre);
      for (let y = Math.round(centre - typical / 3); y <= Math.round(centre + typical / 3); y += 1) if (y > a && y < b && rows[y]! < rows[best]!) best = y;
      cuts.push(best);
    }
    const edges = [a, ...cuts, b];
    return edges.slice(1).map((end, i): [number, number] => [edges[i]!, end]);
  });
}

/**
 * The lines of print in `box`, top to bottom, each as a box of the card (the box's full width); empty when the box
 * holds no print. A band is cut at the middle of each thin stretch between two lines.
 */
export function lineBands(card: RawImage, box: Box): Box[] {
  if (box.y1 - box.y0 < 8 || box.x1 - box.x0 < 8) return [];
  const ink = inkMap(card, box);
  const rows = rowInk(box, ink);
  const full = Math.max(...rows);
  if (full <= 0) return [];
  const runs: Array<[number, number]> = [];
  let start = -1;
  rows.forEach((ink, i) => {
    if (ink >= lineBandRules.inkShare * full && start < 0) start = i;
    if ((ink < lineBandRules.inkShare * full || i === rows.length - 1) && start >= 0) {
      runs.push([start, ink < lineBandRules.inkShare * full ? i : i + 1]);
      start = -1;
    }
  });
  const tallest = Math.max(...runs.map(([a, b]) => b - a));
  // Short runs are joined first (below), then runs holding several lines are cut.
  // A short run (an accent row, a speck) joins the nearer line.
  const lines: Array<[number, number]> = [];
  for (const run of runs) {
    const last = lines[lines.length - 1];
    if (run[1] - run[0] < lineBandRules.minHeightShare * tallest && last) last[1] = run[1];
    else if (last && last[1] - last[0] < lineBandRules.minHeightShare * tallest) last[1] = run[1];
    else lines.push([...run]);
  }
  const separated = splitTall(lines, rows);
  // Between two lines the band is cut at the row with the least ink (an Ñ's tilde in the gap goes with its line).
  const cuts = separated.slice(1).map(([next], i) => {
    const from = separated[i]![1];
    let best = from;
    for (let y = from; y <= next; y += 1) if (rows[y]! < rows[best]!) best = y;
    return best;
  });
  // Each band reaches a little above its cut: an accent or a tilde rising into the gap belongs to the line below.
  const [x0, x1] = printColumns(box, ink);
  return separated.map(([a, b], i) => {
    const margin = lineBandRules.margin * (b - a);
    const above = i === 0 ? a - margin : cuts[i - 1]! - lineBandRules.reachAbove * (b - a);
    const below = i === separated.length - 1 ? b + margin : cuts[i]! + 1;
    return { x0, x1, y0: Math.max(box.y0, Math.round(box.y0 + above)), y1: Math.min(box.y1, Math.round(box.y0 + below)) };
  });
}
