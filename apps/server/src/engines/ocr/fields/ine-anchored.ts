/**
 * The INE/IFE front read by its labels: the labels are found among the words of a whole-card read, the model
 * is the layout that agrees best with the labels found, labels the OCR missed are placed by that layout fitted
 * to the found ones, and each value is taken next to its label (right of it on its row, or the lines below).
 * Nothing is taken from a place no label points to; what is not found stays empty.
 */
import type { RawRead } from '../pool.js';
import type { Box, Region } from '../page.js';
import { findLabels, fitLayout, labelForm, labelTolerance, editDistance, linesAbove, linesBelow, unlabelledWords, wordsConfidence, wordsRightOf, type FoundLabel, type PageWord } from './labels.js';
import { INE_LABELS, INE_LAYOUTS, INE_NON_VALUE_WORDS, type IneLayout, type IneModel } from './ine-layouts.js';

export interface AnchoredValue {
  text: string;
  /** Lines (names, address, place of birth). */
  lines: string[];
  confidence: number;
  /** Each line's mean word confidence, 0-1 (values of several lines: names, address, place of birth). */
  lineConfidences?: number[];
  /** The label was read (true) or placed by the layout (false). */
  labelRead: boolean;
}

export interface AnchoredFront {
  model: IneModel;
  labelsRead: string[];
  /** Values this model prints (a model without SECCIÓN has no sección to read). */
  printed: AnchoredKey[];
  values: Partial<Record<AnchoredKey, AnchoredValue>>;
  /** Where each value sits (for reading it again from a crop). */
  regions: Partial<Record<AnchoredKey, Region>>;
}

export type AnchoredKey =
  | 'names'
  | 'address'
  | 'claveElector'
  | 'curp'
  | 'registro'
  | 'fechaNacimiento'
  | 'sexo'
  | 'seccion'
  | 'vigencia'
  | 'emision'
  | 'estado'
  | 'municipio'
  | 'localidad'
  | 'lugarNacimiento'
  | 'folio';

const NON_VALUE = INE_NON_VALUE_WORDS.map(labelForm);

/** A word printed as a label or header, never a value (exact for short words, a few edits for long ones). */
export function isLabelWord(text: string): boolean {
  const form = labelForm(text);
  if (form === 'OF') return true;
  if (form.length < 3) return false;
  // Short words: one letter misread at most, never one added ('ESTADOS' of ESTADOS UNIDOS is an address word).
  return NON_VALUE.some((label) => {
    if (label.length <= 4) return form === label;
    if (label.length <= 7) return form.length === label.length && editDistance(form, label, 1) <= 1;
    return editDistance(form, label, 2) <= 2;
  });
}

const SINGLE_VALUE: Record<string, AnchoredKey> = {
  CLAVE: 'claveElector',
  CURP: 'curp',
  REGISTRO: 'registro',
  NACIMIENTO: 'fechaNacimiento',
  SEXO: 'sexo',
  SECCION: 'seccion',
  VIGENCIA: 'vigencia',
  EMISION: 'emision',
  ESTADO: 'estado',
  MUNICIPIO: 'municipio',
  LOCALIDAD: 'localidad',
  FOLIO: 'folio',
};

/** What a value right of (or under) its label must look like for it to be that label's value. */
const SHAPES: Partial<Record<AnchoredKey, RegExp>> = {
  claveElector: /[A-Z0-9]{12,}/,
  curp: /[A-Z0-9]{12,}/,
  registro: /\d{4}/,
  fechaNacimiento: /\d{1,2}\D{0,2}\d{1,2}\D{0,2}\d{4}|\d{8}/,
  sexo: /^[HMX]$/,
  seccion: /^\d{3,4}$/,
  vigencia: /\d{4}/,
  emision: /^\d{2,4}$/,
  estado: /^\d{1,2}$/,
  municipio: /^\d{1,3}$/,
  localidad: /^\d{1,4}$/,
  folio: /\d{6,}/,
};

/** Values whose shape alone tells what they are (compacted: letters and digits only). */
const STRONG: Partial<Record<AnchoredKey, RegExp>> = {
  curp: /^[A-Z0-9]{4}\d{6}[A-Z0-9]{6}[A-Z0-9]\d?$/,
  claveElector: /^[A-Z0-9]{6}\d{8}[A-Z0-9]\d{3}$/,
  fechaNacimiento: /^\d{8}$/,
  vigencia: /^(19|20)\d{2}(20)\d{2}$/,
  registro: /^(19|20)\d{4}$/,
};

const joined = (words: PageWord[]) => words.map((w) => w.text).join(' ');
const compact = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Score of a layout against the labels read: labels it has count, labels it lacks count against it. */
function layoutScore(layout: IneLayout, found: Map<string, FoundLabel>, width: number, height: number): number {
  const pairs = [...found.values()].filter((f) => layout.labels[f.key]);
  const fit = fitLayout(
    pairs.map((f) => ({ layout: layout.labels[f.key]!, found: [f.box.x0, f.box.y0], partial: f.partial })),
    width,
    height,
  );
  const residual =
    pairs.reduce((sum, f) => {
      const [lx, ly] = layout.labels[f.key]!;
      return sum + Math.hypot((fit.x(lx) - f.box.x0) / width, (fit.y(ly) - f.box.y0) / height);
    }, 0) / Math.max(1, pairs.length);
  const missing = [...found.keys()].filter((k) => !layout.labels[k]).length;
  const bilingual = [...found.values()].some((f) => /^(NAME|ADDRESS|PLACE OF BIRTH|DATE OF BIRTH)$/.test(f.form));
  const twinBonus = bilingual && layout.model === 'desde el extranjero' ? 1.5 : 0;
  return pairs.length - 2 * missing - 10 * residual + twinBonus;
}

/** A label the OCR did not read, placed where the fitted layout puts it (sized like the labels that were read). */
function placed(key: string, layout: IneLayout, fit: ReturnType<typeof fitLayout>, labelHeight: number): FoundLabel | null {
  const at = layout.labels[key];
  if (!at) return null;
  const text = INE_LABELS.find((l) => l.key === key)!.texts[0]!;
  const x0 = fit.x(at[0]);
  const y0 = fit.y(at[1]);
  return {
    key,
    form: text,
    line: -1,
    words: [],
    score: 0,
    box: { x0, y0, x1: x0 + text.length * labelHeight * 0.75, y1: y0 + labelHeight },
  };
}

/** Share of the card's height, from the top, that holds the header. */
const HEADER_SHARE = 0.25;
/** What the header word of a model weighs against the labels read (a few labels' worth: it names the model). */
const HEADER_WEIGHT = 3;

/** Whether the header (the top of the card) shows `word`, give or take one misread letter in six. */
export function headerShows(page: RawRead, word: string, height: number): boolean {
  const tolerance = Math.floor(word.length / 6);
  return page.lines.some(
    (line) =>
      line.box.y0 < height * HEADER_SHARE &&
      line.words.some((w) => {
        const form = labelForm(w.text);
        return Math.abs(form.length - word.length) <= tolerance && editDistance(form, word, tolerance) <= tolerance;
      }),
  );
}

/**
 * The front read by its labels, in the layout that fits best: the labels read, the model's own header word
 * when one is read, and, as a tie-break (a blurred photo may show no label at all), how many values the
 * layout's places hold.
 */
export function readFrontByLabels(page: RawRead, width: number, height: number): AnchoredFront {
  const found = findLabels(page, INE_LABELS);
  let best: { score: number; front: AnchoredFront } | null = null;
  INE_LAYOUTS.forEach((layout, order) => {
    const front = readWithLayout(page, found, layout, width, height);
    const strong = Object.entries(front.values).filter(([key, v]) => STRONG[key as AnchoredKey]?.test(compact(v!.text))).length;
    const header = layout.headerWord && headerShows(page, layout.headerWord, height) ? HEADER_WEIGHT : 0;
    // Labels and header first; then values of an unmistakable shape where the layout expects them; then the
    // models' order (the newer, commoner ones first).
    const score = layoutScore(layout, found, width, height) + header + 0.6 * strong + 0.05 * Object.keys(front.values).length - 0.01 * order;
    if (!best || score > best.score) best = { score, front };
  });
  return best!.front;
}

/** The median height of the labels read (a label's box is its capitals' height), else 1.8% of the page's. */
function medianLabelHeight(found: Map<string, FoundLabel>, height: number): number {
  const heights = [...found.values()].map((f) => f.box.y1 - f.box.y0).sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? height * 0.018;
}

function readWithLayout(page: RawRead, read: Map<string, FoundLabel>, layout: IneLayout, width: number, height: number): AnchoredFront {
  const anchors = consistentAnchors(
    [...read.values()].filter((f) => layout.labels[f.key]),
    layout,
    width,
    height,
  );
  const fit = fitLayout(
    anchors.map((f) => ({ layout: layout.labels[f.key]!, found: [f.box.x0, f.box.y0], partial: f.partial })),
    width,
    height,
  );
  const labelHeight = medianLabelHeight(read, height);
  const found = withoutStrayLabels(read, layout, fit, anchors.length, width, height);

  const labels = new Map(found);
  for (const key of Object.keys(layout.labels)) {
    if (!labels.has(key)) {
      const label = placed(key, layout, fit, labelHeight);
      if (label) labels.set(key, label);
    }
  }
  const words = unlabelledWords(page, read).filter((w) => w.text.trim() !== '');
  const values: AnchoredFront['values'] = {};
  const regions: AnchoredFront['regions'] = {};
  const all = [...labels.values()];

  for (const [labelKey, valueKey] of Object.entries(SINGLE_VALUE)) {
    const label = labels.get(labelKey);
    if (!label) continue;
    const labelRead = found.has(labelKey);
    const shape = SHAPES[valueKey]!;
    const fits = (ws: PageWord[]) => ws.length > 0 && shape.test(valueKey === 'sexo' || SHORT.has(valueKey) ? compact(joined(ws)) : joined(ws).toUpperCase());
    const right = wordsRightOf(label, words, all).filter((w) => !isLabelWord(w.text));
    const h = label.box.y1 - label.box.y0;
    let chosen: PageWord[] = [];
    let under = false;
    const take = valueKey === 'curp' || valueKey === 'claveElector' ? right.slice(0, 3) : right;
    if (fits(take)) chosen = take;
    else {
      const below = linesBelow(label, words, all, { maxLines: 1, columnEnd: label.box.x1 + 14 * h })[0] ?? [];
      const near = below.filter((w) => w.box.y0 < label.box.y1 + 2.5 * h && !isLabelWord(w.text));
      if (fits(near)) {
        chosen = near;
        under = true;
      }
    }
    const stacked = chosen.length === 0 && layout.stacked?.includes(labelKey) === true;
    setRegion(regions, valueKey, valueRegion(label, labelRead, valueKey, chosen, under ? 'under' : stacked ? 'stacked' : 'beside', all), width, height);
    if (chosen.length === 0) continue;
    values[valueKey] = {
      text: joined(chosen),
      lines: [joined(chosen)],
      confidence: wordsConfidence(chosen) * (labelRead ? 1 : 0.7),
      labelRead,
    };
  }

  const block = (labelKey: string, valueKey: AnchoredKey, maxLines: number, columnEnd?: number) => {
    const label = labels.get(labelKey);
    if (!label) return;
    const lines = linesBelow(label, words, all, { maxLines, ...(columnEnd !== undefined ? { columnEnd } : {}) })
      .filter((line) => !line.some((w) => HEADER_WORDS.test(labelForm(w.text))))
      .map((line) => line.filter((w) => !isLabelWord(w.text)))
      .filter((line) => line.length > 0);
    const h = label.box.y1 - label.box.y0;
    const valueWords = lines.flat();
    // The crop starts on the label's own row (its words are dropped as labels): an accent or the tilde of an Ñ
    // on the first line rises above that line's box, and a crop cut at the label's foot takes it off.
    // A value line is printed at about three label heights (a label's box is its capitals' height).
    let bottom = label.box.y1 + maxLines * 3 * h;
    const nextBelow = [...found.values()].filter((o) => o !== label && o.box.y0 > label.box.y1 && o.box.x1 > label.box.x0 - h && o.box.x0 < label.box.x1 + 8 * h);
    bottom = Math.min(bottom, ...nextBelow.map((o) => o.box.y0 - 0.2 * h));
    if (lines.length >= maxLines) bottom = Math.min(bottom, Math.max(...valueWords.map((w) => w.box.y1)) + 0.6 * h);
    // The crop stops at the labels of the next column (the birth date and sex beside the names on some models),
    // but never short of the words read as the value: a name is read whole.
    const columnRight = Math.min(
      columnEnd ?? width * 0.98,
      ...all.filter((o) => o !== label && o.box.x0 > label.box.x1 + h && o.box.y0 < bottom && o.box.y1 > label.box.y0).map((o) => o.box.x0 - 0.3 * h),
    );
    const right = Math.max(columnRight, ...valueWords.map((w) => w.box.x1 + 1.5 * h));
    // A label placed by the layout is only roughly where it is printed: its column may start a little left.
    const left = Math.min(label.box.x0 - (found.has(labelKey) ? 1 : 3) * h, ...valueWords.map((w) => w.box.x0 - 0.5 * h));
    setRegion(regions, valueKey, { x0: left, y0: label.box.y0 - 0.3 * h, x1: right, y1: bottom }, width, height);
    if (lines.length === 0) return;
    values[valueKey] = {
      text: lines.map(joined).join(' '),
      lines: lines.map(joined),
      confidence: wordsConfidence(lines.flat()) * (found.has(labelKey) ? 1 : 0.7),
      lineConfidences: lines.map((line) => wordsConfidence(line) * (found.has(labelKey) ? 1 : 0.7)),
      labelRead: found.has(labelKey),
    };
  };
  block('NOMBRE', 'names', 3);
  block('DOMICILIO', 'address', layout.addressLines);
  block('LUGAR', 'lugarNacimiento', 2);

  const names = namesAboveAddress(found.get('DOMICILIO'), words, labels.get('SEXO')?.box.x0 ?? Infinity, values.names);
  if (names) values.names = names;
  return { model: layout.model, labelsRead: [...found.keys()], printed: printedKeys(layout), values, regions };
}

/**
 * Where a single value is cut again from: where it was found, beside its label or under it (stacked labels); a value
 * found in neither place on a model that prints it under its label is cut from under the label.
 */
function valueRegion(label: FoundLabel, labelRead: boolean, valueKey: AnchoredKey, chosen: PageWord[], place: 'beside' | 'under' | 'stacked', all: FoundLabel[]): Box {
  const h = Math.max(1, label.box.y1 - label.box.y0);
  if (place === 'stacked') {
    return { x0: label.box.x0 - (labelRead ? 0.5 : 2) * h, y0: label.box.y1 - 0.2 * h, x1: label.box.x1 + (labelRead ? 1.5 : 3) * h, y1: label.box.y1 + 3 * h };
  }
  if (place === 'under') {
    return { x0: label.box.x0 - 0.5 * h, y0: label.box.y1, x1: Math.max(...chosen.map((w) => w.box.x1)) + 1.5 * h, y1: Math.max(...chosen.map((w) => w.box.y1)) + 0.5 * h };
  }
  const nextOnRow = Math.min(Infinity, ...all.filter((o) => o !== label && o.box.x0 > label.box.x1 && o.box.y1 > label.box.y0 - h && o.box.y0 < label.box.y1 + h).map((o) => o.box.x0 - 0.3 * h));
  const reach = valueKey === 'curp' || valueKey === 'claveElector' ? 30 : 14;
  return { x0: label.box.x1 - (labelRead ? 0.2 : 1.5) * h, y0: label.box.y0 - 0.8 * h, x1: Math.min(nextOnRow, label.box.x1 + reach * h), y1: label.box.y1 + 0.7 * h };
}

/**
 * The names label misread and not placed well: the lines just above the address label are the names, when they
 * are more lines than the names read (undefined otherwise).
 */
function namesAboveAddress(domicilio: FoundLabel | undefined, words: PageWord[], columnEnd: number, read: AnchoredFront['values']['names']): AnchoredFront['values']['names'] {
  if ((read && read.lines.length >= 2) || !domicilio) return undefined;
  const lines = linesAbove(domicilio, words, 3, columnEnd)
    .map((line) => line.filter((w) => !isLabelWord(w.text)))
    .filter((line) => line.length > 0);
  if (lines.length <= (read?.lines.length ?? 0)) return undefined;
  return {
    text: lines.map(joined).join(' '),
    lines: lines.map(joined),
    confidence: wordsConfidence(lines.flat()) * 0.7,
    lineConfidences: lines.map((line) => wordsConfidence(line) * 0.7),
    labelRead: false,
  };
}

/** The values this layout prints: its single values, the names, the address and, when it has one, the birthplace. */
function printedKeys(layout: IneLayout): AnchoredKey[] {
  return [
    ...Object.entries(SINGLE_VALUE)
      .filter(([label]) => layout.labels[label])
      .map(([, key]) => key),
    'names',
    'address',
    ...(layout.labels.LUGAR ? ['lugarNacimiento' as const] : []),
  ] as AnchoredKey[];
}

/** How far (a share of the card) a label read may sit from where the fitted layout puts it before it is no label. */
const STRAY_LABEL = 0.15;

/**
 * The labels read, less those far from where the layout fitted to the others puts them (a word of the background
 * or of the photo's surroundings read as NOMBRE at the card's foot): such a label is placed by the layout instead.
 * Judged only with three anchors or more.
 */
function withoutStrayLabels(read: Map<string, FoundLabel>, layout: IneLayout, fit: ReturnType<typeof fitLayout>, anchors: number, width: number, height: number): Map<string, FoundLabel> {
  if (anchors < 3) return read;
  return new Map(
    [...read].filter(([key, f]) => {
      const at = layout.labels[key];
      if (!at || f.partial) return true;
      return Math.hypot((fit.x(at[0]) - f.box.x0) / width, (fit.y(at[1]) - f.box.y0) / height) <= STRAY_LABEL;
    }),
  );
}

/**
 * The labels that agree on where the layout sits: a word read as a label by mistake ('ESTADOS' of an address)
 * would drag the whole layout; anchors whose offset from the layout is far from the others' are left out, and a
 * lone anchor must sit near where the layout puts it.
 */
function consistentAnchors(anchors: FoundLabel[], layout: IneLayout, width: number, height: number): FoundLabel[] {
  const offsets = anchors.map((f) => {
    const [lx, ly] = layout.labels[f.key]!;
    return { f, dx: f.partial ? 0 : f.box.x0 / width - lx, dy: f.box.y0 / height - ly };
  });
  if (offsets.length === 0) return [];
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const mx = offsets.length === 1 ? 0 : median(offsets.map((o) => o.dx));
  const my = offsets.length === 1 ? 0 : median(offsets.map((o) => o.dy));
  const limit = offsets.length === 1 ? 0.08 : 0.06;
  return offsets.filter((o) => Math.abs(o.dx - mx) <= limit && Math.abs(o.dy - my) <= limit).map((o) => o.f);
}

const HEADER_WORDS = /^(INSTITUTO|NACIONAL|FEDERAL|ELECTORAL|CREDENCIAL|VOTAR|DESDE|EXTRANJERO|MEXICO)$/;

const SHORT = new Set<AnchoredKey>(['seccion', 'emision', 'estado', 'municipio', 'localidad']);

/** A region in card pixels, clamped to the card and kept only when it is a real box (fractions stored). */
function setRegion(regions: AnchoredFront['regions'], key: AnchoredKey, box: { x0: number; y0: number; x1: number; y1: number }, width: number, height: number): void {
  const x0 = Math.max(0, box.x0);
  const y0 = Math.max(0, box.y0);
  const x1 = Math.min(width, box.x1);
  const y1 = Math.min(height, box.y1);
  if (x1 - x0 < 8 || y1 - y0 < 8) return;
  regions[key] = { x0: x0 / width, y0: y0 / height, x1: x1 / width, y1: y1 / height };
}
