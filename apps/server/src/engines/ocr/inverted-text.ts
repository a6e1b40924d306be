/**
 * Light print on a dark or saturated band (the CFE bill's white-on-green headers 'Periodo Consumo', 'Número de
 * servicio'): tesseract's threshold takes the band for ink and its letters for paper, so those labels are never
 * read. The bands are found on the grey page by the median of small cells and read again negated.
 */
import type { Box } from './page.js';

export interface GreyImage {
  data: Uint8Array | Buffer;
  width: number;
  height: number;
}

/** A pixel of the cleaned page below this is band, not paper (CFE green is ~85, the grey headers ~110). */
const DARK = 150;
/** Band pixels this much lighter than the band's median are its letters. */
const LETTER_CONTRAST = 60;
/** A band is mostly band: the share of its box that is dark. */
const MIN_FILL = 0.6;
/** Letters cover some of a band, not none (a plain colour bar) and not most (a photo's light patch). */
const MIN_LETTER_SHARE = 0.015;
const MAX_LETTER_SHARE = 0.45;
/** A band is a strip of the page: not a large dark area (a photo's background, a picture). */
const MAX_AREA_SHARE = 0.08;
const MAX_REGIONS = 24;
const MIN_ASPECT = 2.5;
/** The page is examined in cells of this share of its shorter side, and cleaned over this many cells around. */
const CELL_SHARE = 1 / 400;
/** Light letters on a band are thinner than three cells; dark print on paper and borders than seven. */
const LETTER_RADIUS = 1;
const RADIUS = 3;

function median(hist: Uint32Array, count: number): number {
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v]!;
    if (seen * 2 >= count) return v;
  }
  return 255;
}

/** A min or max filter over a (2r+1) square, separable. */
function rank(src: Uint8Array, cols: number, rows: number, r: number, op: 'min' | 'max'): Uint8Array {
  const pick = op === 'min' ? Math.min : Math.max;
  const tmp = new Uint8Array(src.length);
  const out = new Uint8Array(src.length);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let v = src[y * cols + x]!;
      for (let d = Math.max(0, x - r); d <= Math.min(cols - 1, x + r); d++) v = pick(v, src[y * cols + d]!);
      tmp[y * cols + x] = v;
    }
  }
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let v = tmp[y * cols + x]!;
      for (let d = Math.max(0, y - r); d <= Math.min(rows - 1, y + r); d++) v = pick(v, tmp[d * cols + x]!);
      out[y * cols + x] = v;
    }
  }
  return out;
}

/**
 * Boxes of dark bands that carry light print, largest first, in page pixels. The page is reduced to the darkest pixel of small cells,
 * then cleaned by grey morphology: an opening (min, then max) fills the light letters into their band, a closing
 * (max, then min) removes what is thinner than a few cells and dark (letters printed on paper, box borders).
 */
export function invertedTextRegions(grey: GreyImage): Box[] {
  const { data, width, height } = grey;
  const cell = Math.max(2, Math.round(Math.min(width, height) * CELL_SHARE));
  const cols = Math.floor(width / cell);
  const rows = Math.floor(height / cell);
  if (cols < 4 * RADIUS || rows < 4 * RADIUS) return [];
  const small = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let least = 255;
      for (let y = r * cell; y < (r + 1) * cell; y++) {
        const row = y * width;
        for (let x = c * cell; x < (c + 1) * cell; x++) least = Math.min(least, data[row + x]!);
      }
      small[r * cols + c] = least;
    }
  }
  const opened = rank(rank(small, cols, rows, LETTER_RADIUS, 'min'), cols, rows, LETTER_RADIUS, 'max');
  const cleaned = rank(rank(opened, cols, rows, RADIUS, 'max'), cols, rows, RADIUS, 'min');
  const dark = cleaned.map((v) => (v < DARK ? 1 : 0));
  // Connected runs of dark cells (4-neighbours), each as its bounding box.
  const seen = new Uint8Array(cols * rows);
  const regions: Array<{ box: Box; area: number }> = [];
  const stack: number[] = [];
  for (let start = 0; start < dark.length; start++) {
    if (!dark[start] || seen[start]) continue;
    let c0 = cols,
      c1 = -1,
      r0 = rows,
      r1 = -1,
      cells = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const r = Math.floor(i / cols);
      const c = i % cols;
      cells++;
      c0 = Math.min(c0, c);
      c1 = Math.max(c1, c);
      r0 = Math.min(r0, r);
      r1 = Math.max(r1, r);
      for (const j of [c > 0 ? i - 1 : -1, c < cols - 1 ? i + 1 : -1, r > 0 ? i - cols : -1, r < rows - 1 ? i + cols : -1]) {
        if (j >= 0 && dark[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    // Print just above or below a band joins it in the cleaning ('13 NOV 17' over the next band): rows and columns
    // that are band over less than half the box are trimmed off.
    const rowDark = (r: number) => {
      let n = 0;
      for (let c = c0; c <= c1; c++) n += dark[r * cols + c]!;
      return n;
    };
    const colDark = (c: number) => {
      let n = 0;
      for (let r = r0; r <= r1; r++) n += dark[r * cols + c]!;
      return n;
    };
    while (r0 < r1 && rowDark(r0) < (c1 - c0 + 1) / 2) r0++;
    while (r1 > r0 && rowDark(r1) < (c1 - c0 + 1) / 2) r1--;
    while (c0 < c1 && colDark(c0) < (r1 - r0 + 1) / 2) c0++;
    while (c1 > c0 && colDark(c1) < (r1 - r0 + 1) / 2) c1--;
    const boxCells = (c1 - c0 + 1) * (r1 - r0 + 1);
    // A band is a strip, far wider than tall (a bold dark digit is not), with room for a line of letters.
    if (c1 - c0 + 1 < MIN_ASPECT * (r1 - r0 + 1) || r1 - r0 + 1 < 2 * RADIUS || Math.min(cells, boxCells) / boxCells < MIN_FILL) continue;
    if (boxCells > MAX_AREA_SHARE * cols * rows) continue;
    const box = { x0: c0 * cell, y0: r0 * cell, x1: Math.min(width, (c1 + 1) * cell), y1: Math.min(height, (r1 + 1) * cell) };
    if (!carriesLetters(grey, box) || !solidEdges(grey, box)) continue;
    regions.push({ box, area: boxCells });
  }
  return joinFragments(grey, regions, cell)
    .sort((a, b) => b.area - a.area)
    .slice(0, MAX_REGIONS)
    .map((r) => r.box);
}

/**
 * Pieces of one band split by its own letters (thick white print on a blurred phone photo breaks the band where
 * the cleaning could not fill it) are joined again: boxes on the same rows whose gap is itself band (dark), not
 * the paper between two boxes of the page.
 */
function joinFragments(grey: GreyImage, regions: Array<{ box: Box; area: number }>, cell: number): Array<{ box: Box; area: number }> {
  const out = [...regions];
  for (let joined = true; joined; ) {
    joined = false;
    outer: for (let i = 0; i < out.length; i++) {
      for (let j = 0; j < out.length; j++) {
        const a = out[i]!.box;
        const b = out[j]!.box;
        const gap = b.x0 - a.x1;
        if (i === j || gap < 0 || gap > a.y1 - a.y0 || Math.abs(a.y0 - b.y0) > 2 * cell || Math.abs(a.y1 - b.y1) > 2 * cell) continue;
        const strip = { x0: a.x1, x1: Math.max(a.x1 + 1, b.x0), y0: Math.max(a.y0, b.y0), y1: Math.min(a.y1, b.y1) };
        if (boxMedian(grey, strip) >= DARK) continue;
        const merged = { box: { x0: a.x0, x1: b.x1, y0: Math.min(a.y0, b.y0), y1: Math.max(a.y1, b.y1) }, area: out[i]!.area + out[j]!.area };
        out.splice(Math.max(i, j), 1);
        out.splice(Math.min(i, j), 1, merged);
        joined = true;
        break outer;
      }
    }
  }
  return out;
}

function boxMedian(grey: GreyImage, box: Box): number {
  const hist = new Uint32Array(256);
  let count = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      hist[grey.data[y * grey.width + x]!]!++;
      count++;
    }
  }
  return median(hist, count);
}

/** A band's own margin above and below its letters is solid: some row of each outer part of its box is band across. */
const EDGE_PART = 0.4;
const MIN_EDGE_FILL = 0.9;
const EDGE_CONTRAST = 30;

/**
 * Whether the box has a solid row in its top and in its bottom part. Bold dark print blurred on a phone photo
 * ('558 893 740 656') survives the cleaning as a dark strip with light counters, like a band; but each of its rows
 * crosses the letters and the gaps between them (measured at most 0.83 dark), while a band's margins above and
 * below its letters are band from end to end (0.94-1.00). The box may hold a little paper above or below the band.
 */
function solidEdges(grey: GreyImage, box: Box): boolean {
  const values: number[] = [];
  for (let y = box.y0; y < box.y1; y += 2) for (let x = box.x0; x < box.x1; x += 2) values.push(grey.data[y * grey.width + x]!);
  values.sort((a, b) => a - b);
  const limit = values[Math.floor(values.length / 2)]! + EDGE_CONTRAST;
  const solid = (y: number) => {
    let dark = 0;
    for (let x = box.x0; x < box.x1; x++) if (grey.data[y * grey.width + x]! < limit) dark++;
    return dark >= MIN_EDGE_FILL * (box.x1 - box.x0);
  };
  const part = Math.max(1, Math.round(EDGE_PART * (box.y1 - box.y0)));
  const any = (from: number, to: number) => {
    for (let y = from; y < to; y++) if (solid(y)) return true;
    return false;
  };
  return any(box.y0, box.y0 + part) && any(box.y1 - part, box.y1);
}

/** Whether a dark box holds light print: some, not most, of its pixels well above its median. */
function carriesLetters(grey: GreyImage, box: Box): boolean {
  const hist = new Uint32Array(256);
  let count = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      hist[grey.data[y * grey.width + x]!]!++;
      count++;
    }
  }
  const middle = median(hist, count);
  // Bold dark print on paper survives the cleaning as a blob; the paper is still most of its box.
  if (middle >= DARK) return false;
  const level = middle + LETTER_CONTRAST;
  let light = 0;
  for (let v = Math.min(256, level); v < 256; v++) light += hist[v]!;
  const share = light / Math.max(1, count);
  return share >= MIN_LETTER_SHARE && share <= MAX_LETTER_SHARE;
}
