/**
 * Label-anchored reading (docs/decisions.md "Label-anchored ID reading"): the printed labels of a document
 * (NOMBRE, CURP, VIGENCIA... and their English twins where printed) are found among the words of a whole-card
 * read, tolerant to OCR misreads, and each value is taken where its label says: on the label's line to its
 * right, or on the lines below it in its column. Pure functions on word boxes.
 */
import { plainForm } from '../lexicon.js';
import type { Box } from '../page.js';
import type { RawLine, RawRead } from '../pool.js';
import { editDistance } from '../../../domain/edit-distance.js';

export interface PageWord {
  text: string;
  confidence: number;
  box: Box;
  /** Index of the line in the read. */
  line: number;
  /** Index of the word in its line. */
  index: number;
}

export interface LabelSpec {
  key: string;
  /** Every printed form of the label (Spanish, English twin, older wording). */
  texts: string[];
  /** Words within a misread letter of the label that are other words printed near it (ESTADOS of an address). */
  notThese?: string[];
}

export interface FoundLabel {
  key: string;
  box: Box;
  line: number;
  /** Indices (line, word) of the words the label took. */
  words: Array<[number, number]>;
  /** 1 when read exactly, less with each edit. */
  score: number;
  /** The printed form that matched (e.g. the English twin 'NAME'). */
  form: string;
  /** Only one word of the label was read: its left edge is an estimate. */
  partial?: boolean;
}

/** Uppercase letters and digits only, accents dropped: what label matching compares. */
export function labelForm(text: string): string {
  return plainForm(text.toUpperCase())
    .replace(/Ñ/g, 'N')
    .replace(/[^A-Z0-9]/g, '');
}

export { editDistance };

/** Edits a label of this many letters may carry and still be recognised. */
export function labelTolerance(length: number): number {
  if (length <= 3) return 0;
  if (length <= 7) return 1;
  if (length <= 12) return 2;
  return 3;
}

export function pageWords(read: RawRead): PageWord[] {
  return read.lines.flatMap((line, l) => line.words.map((w, index) => ({ text: w.text, confidence: w.confidence, box: w.box, line: l, index })));
}

const union = (boxes: Box[]): Box => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

interface Candidate extends FoundLabel {
  length: number;
}

/**
 * The labels found on the page: runs of consecutive words of one line whose joined letters are within a few
 * edits of a printed form (OCR splits and merges words), or, for labels of several words, their longest word
 * (six letters or more) read alone (the short words of 'AÑO DE REGISTRO' are the ones misread). Each word
 * serves one label; longer, closer matches win.
 */
export function findLabels(read: RawRead, specs: LabelSpec[]): Map<string, FoundLabel> {
  const candidates: Candidate[] = [];
  read.lines.forEach((line, l) => {
    const forms = line.words.map((w) => labelForm(w.text));
    for (const spec of specs) {
      for (const text of spec.texts) {
        const target = labelForm(text);
        const parts = text.split(/\s+/).map(labelForm).filter(Boolean);
        const tolerance = labelTolerance(target.length);
        for (let start = 0; start < forms.length; start++) {
          // A run starts and ends on a word with letters: a mark next to the label ('— SEXO') adds nothing to
          // its letters but would stretch its box over the values beside it.
          if (forms[start] === '') continue;
          let joined = '';
          for (let end = start; end < Math.min(forms.length, start + parts.length + 1); end++) {
            joined += forms[end];
            if (forms[end] === '') continue;
            if (joined.length > target.length + tolerance) break;
            const distance = editDistance(joined, target, tolerance);
            if (distance <= tolerance && joined.length >= 2 && !spec.notThese?.includes(joined)) {
              candidates.push(candidate(spec.key, text, line, l, start, end, 1 - distance / Math.max(4, target.length), target.length));
            }
          }
        }
        if (parts.length < 2) continue;
        const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
        if (longest.length < 6) continue;
        const word = text.split(/\s+/).find((p) => labelForm(p) === longest)!;
        const before = text.indexOf(word);
        const after = text.length - before - word.length;
        forms.forEach((form, i) => {
          const distance = editDistance(form, longest, 1);
          if (distance > 1) return;
          const c = candidate(spec.key, text, line, l, i, i, 0.6 - distance * 0.1, longest.length);
          // Only the longest word was read: the label's box is that word's, stretched over the words around it.
          const perChar = (c.box.x1 - c.box.x0) / Math.max(1, form.length);
          c.box = { ...c.box, x0: c.box.x0 - before * perChar, x1: c.box.x1 + after * perChar };
          candidates.push({ ...c, partial: true });
        });
      }
    }
  });
  candidates.sort((a, b) => b.score * b.length - a.score * a.length);
  const taken = new Set<string>();
  const found = new Map<string, FoundLabel>();
  for (const c of candidates) {
    if (found.has(c.key) || c.words.some(([l, w]) => taken.has(`${l}:${w}`))) continue;
    c.words.forEach(([l, w]) => taken.add(`${l}:${w}`));
    const { length: _length, ...label } = c;
    found.set(c.key, label);
  }
  return found;
}

function candidate(key: string, form: string, line: RawLine, l: number, start: number, end: number, score: number, length: number): Candidate {
  const words = line.words.slice(start, end + 1);
  return {
    key,
    form,
    box: union(words.map((w) => w.box)),
    line: l,
    words: words.map((_, i) => [l, start + i] as [number, number]),
    score,
    length,
  };
}

const NOISE_CONFIDENCE = 45;

/** Words that belong to no label: the values (noise left out). */
export function unlabelledWords(read: RawRead, labels: Map<string, FoundLabel>): PageWord[] {
  const used = new Set([...labels.values()].flatMap((f) => f.words.map(([l, w]) => `${l}:${w}`)));
  // Marks with no letter or digit (a dash, a speck read as '»') are no part of any value, nor are short words
  // read with little confidence (hologram, chip or guilloche texture read as '7' or 'd').
  return pageWords(read).filter((w) => !used.has(`${w.line}:${w.index}`) && /[\p{L}\p{N}]/u.test(w.text) && (w.confidence >= NOISE_CONFIDENCE || w.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 4));
}

const height = (b: Box) => b.y1 - b.y0;
const centreY = (b: Box) => (b.y0 + b.y1) / 2;
const verticalOverlap = (a: Box, b: Box) => Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

/** Words of the label's own row to its right, up to the next label of that row or a wide gap. */
export function wordsRightOf(label: FoundLabel, words: PageWord[], labels: Iterable<FoundLabel>, maxGapHeights = 4): PageWord[] {
  const h = Math.max(1, height(label.box));
  const maxGap = (label.line < 0 ? maxGapHeights * 2 : maxGapHeights) * h;
  const sameRow = (b: Box) => verticalOverlap(b, label.box) >= 0.4 * Math.min(h, height(b));
  const stop = Math.min(Infinity, ...[...labels].filter((o) => o !== label && o.box.x0 > label.box.x1 && sameRow(o.box)).map((o) => o.box.x0));
  const row = words
    // A label placed by the layout (line -1) has an estimated width: its right edge is uncertain.
    .filter((w) => w.box.x0 >= label.box.x1 - h * (label.line < 0 ? 2 : 0.3) && w.box.x1 <= stop + h * 0.3 && sameRow(w.box))
    .sort((a, b) => a.box.x0 - b.box.x0);
  const kept: PageWord[] = [];
  let edge = label.box.x1;
  for (const word of row) {
    if (word.box.x0 - edge > maxGap) break;
    kept.push(word);
    edge = word.box.x1;
  }
  return kept;
}

export interface BelowOptions {
  maxLines: number;
  /** Right edge of the column when no label bounds it (card pixels). */
  columnEnd?: number;
}

/**
 * Lines of words under the label in its column: starting at the label's left edge, ending at the next label to
 * the right of that column, and stopping at the next label below (or after `maxLines`).
 */
export function linesBelow(label: FoundLabel, words: PageWord[], labels: Iterable<FoundLabel>, options: BelowOptions): PageWord[][] {
  const h = Math.max(1, height(label.box));
  const all = [...labels].filter((o) => o !== label);
  // A label placed by the layout fitted to a few others can sit a few heights off its printed place.
  const left = label.box.x0 - (label.line < 0 ? 5 : label.partial ? 3 : 1.5) * h;
  const rightLabels = all.filter((o) => o.box.x0 > label.box.x1 + h && o.box.y1 > label.box.y0 - h);
  const below = all.filter((o) => o.box.y0 > label.box.y1 - 0.3 * h && o.box.x1 > left && o.box.x0 < label.box.x1 + 8 * h);
  const bottom = Math.min(Infinity, ...below.map((o) => o.box.y0 - 0.2 * h));
  const candidates = words.filter((w) => centreY(w.box) > label.box.y1 - 0.2 * h && centreY(w.box) < bottom && w.box.x0 >= left);
  const columnEnd = (w: PageWord) => {
    const bounding = rightLabels.filter((o) => o.box.y0 < w.box.y1 + 2 * h);
    return Math.min(options.columnEnd ?? Infinity, ...bounding.map((o) => o.box.x0 - 0.3 * h));
  };
  // A word that starts in the column belongs to it whole: a value is never cut at a column bound (a label
  // placed or read a little off would otherwise shorten a name).
  const inColumn = candidates.filter((w) => w.box.x0 < columnEnd(w));
  return groupLines(inColumn, h)
    .map((line) => firstRun(line, left))
    .slice(0, options.maxLines);
}

/**
 * The words of a line up to the first wide gap: words of one value are a space apart, a gap of several line
 * heights is the next column (a value or a label there the layout did not bound: 'REYES … EX' of 'SEXO / SEX').
 * The run kept is the first one starting in the label's column.
 */
function firstRun(line: PageWord[], left: number): PageWord[] {
  const heights = line.map((w) => height(w.box)).sort((a, b) => a - b);
  const gap = COLUMN_GAP * heights[Math.floor(heights.length / 2)]!;
  const runs: PageWord[][] = [];
  for (const word of line) {
    const run = runs.at(-1);
    if (run && word.box.x0 - run.at(-1)!.box.x1 <= gap) run.push(word);
    else runs.push([word]);
  }
  return runs.find((run) => run[0]!.box.x0 >= left) ?? runs[0]!;
}

/** A gap between two words wider than this many times the line's height separates two columns. */
const COLUMN_GAP = 4;

/**
 * Words grouped into printed lines: tesseract's own lines first (it keeps a line's words together better than
 * their boxes do: a dash or an accent has an odd box), then lines at the same height merged.
 */
export function groupLines(words: PageWord[], labelHeight: number): PageWord[][] {
  const byLine = new Map<number, PageWord[]>();
  for (const word of words) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  const centre = (line: PageWord[]) => {
    const sorted = line.map((w) => centreY(w.box)).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const ordered = [...byLine.values()].sort((a, b) => centre(a) - centre(b));
  const merged: PageWord[][] = [];
  for (const line of ordered) {
    const last = merged.at(-1);
    if (last && Math.abs(centre(line) - centre(last)) < 0.5 * labelHeight) last.push(...line);
    else merged.push([...line]);
  }
  return merged.map((line) => line.sort((a, b) => a.box.x0 - b.box.x0));
}

/** Words of lines above a label, in its column, nearest first reversed into reading order. */
export function linesAbove(label: FoundLabel, words: PageWord[], maxLines: number, columnEnd = Infinity): PageWord[][] {
  const h = Math.max(1, height(label.box));
  const candidates = words.filter((w) => centreY(w.box) < label.box.y0 && w.box.x0 >= label.box.x0 - 1.5 * h && w.box.x1 <= columnEnd);
  return groupLines(candidates, h).slice(-maxLines);
}

/** A map from layout positions (fractions of the card) to where the found labels say they are (pixels). */
export interface LayoutFit {
  x(fraction: number): number;
  y(fraction: number): number;
  /** How many labels the fit rests on (0: the layout as drawn). */
  anchors: number;
}

/**
 * Scale and offset per axis fitted by least squares to the labels found (layout position of each label's
 * top-left corner against where it was read). One label gives an offset only; none leaves the layout as is.
 */
export function fitLayout(pairs: Array<{ layout: [number, number]; found: [number, number]; partial?: boolean | undefined }>, width: number, height_: number): LayoutFit {
  const axis = (pick: 0 | 1, size: number) => {
    // A label read from one of its words only says where its row is, not where it starts.
    const usable = pick === 0 ? pairs.filter((p) => !p.partial) : pairs;
    const xs = usable.map((p) => p.layout[pick] * size);
    const ys = usable.map((p) => p.found[pick]);
    const n = xs.length;
    if (n === 0) return (v: number) => v * size;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    let scale = 1;
    if (n >= 2 && sxx > (0.05 * size) ** 2) {
      scale = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / sxx;
      // A fit far from the card's own scale rests on a misplaced label: keep the offset only.
      if (!(scale > 0.8 && scale < 1.25)) scale = 1;
    }
    return (v: number) => my + (v * size - mx) * scale;
  };
  const fx = axis(0, width);
  const fy = axis(1, height_);
  return { x: fx, y: fy, anchors: pairs.length };
}

/** Mean word confidence (0..1) of some words; 0 without words. */
export function wordsConfidence(words: PageWord[]): number {
  return words.length === 0 ? 0 : words.reduce((a, w) => a + w.confidence, 0) / words.length / 100;
}

export interface ValueSpec extends LabelSpec {
  /** What the value looks like (tested on its text); without it any words do. */
  shape?: RegExp;
  /** Lines of a value printed under its label (default 1). */
  maxLines?: number;
}

/**
 * Any document read by its labels, no layout at all: each found label's value is the words right of it that
 * have the value's shape, else the lines under it. Values of labels not found stay absent. Used to measure the
 * machinery on real photos of documents the flow does not read (docs/decisions.md "Label-anchored ID reading").
 */
export function readByLabels(read: RawRead, specs: ValueSpec[], isLabel: (text: string) => boolean): Record<string, string> {
  const found = findLabels(read, specs);
  const words = unlabelledWords(read, found).filter((w) => !isLabel(w.text));
  const labels = [...found.values()];
  const out: Record<string, string> = {};
  for (const spec of specs) {
    const label = found.get(spec.key);
    if (!label) continue;
    const fits = (text: string) => text.trim() !== '' && (!spec.shape || spec.shape.test(text));
    const right = wordsRightOf(label, words, labels)
      .map((w) => w.text)
      .join(' ');
    if (fits(right)) {
      out[spec.key] = right;
      continue;
    }
    const h = label.box.y1 - label.box.y0;
    const below = linesBelow(label, words, labels, { maxLines: spec.maxLines ?? 1, columnEnd: label.box.x1 + 20 * h })
      .filter((line) => line[0]!.box.y0 < label.box.y1 + 3 * h * (spec.maxLines ?? 1))
      .map((line) => line.map((w) => w.text).join(' '));
    if (below.length > 0 && fits(below.join(' '))) out[spec.key] = below.join(' ');
  }
  return out;
}
