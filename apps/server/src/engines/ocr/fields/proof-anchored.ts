/**
 * Label-anchored reading of a proof of address: the labels Mexican bills print (CFE: 'Total a pagar',
 * 'Número de servicio', 'Fecha límite de pago', 'Periodo', 'Nombre y Domicilio'; Telmex: 'Teléfono',
 * 'Fecha de corte', 'Pagar antes de'; the 'Nombre:', 'Domicilio:' forms of other bills) are found among the
 * words OCR read on the page, with their boxes, and each value is read where its label says: after it on the
 * same line, or in the box below it (read again, enlarged, from the page image). A value that does not have
 * its field's shape (a date, an amount, a 10- or 12-digit number, an address block) is left empty, never
 * taken from neighbouring text. What is printed is returned as printed: letters are uppercased, accents are
 * neither added nor removed.
 */
import type { Box } from '../page.js';
import { datesIn, foldText, splitStreet, type ProofFields } from './proof.js';
import { editDistance } from '../../../domain/edit-distance.js';
import { markCount } from '../lexicon.js';

export interface PageWord {
  text: string;
  confidence: number;
  box: Box;
}

export interface PageLine {
  words: PageWord[];
  /** The light-on-dark band the line was read from (negated): its value is printed under the band. */
  band?: Box;
}

/** How a region is read again: as lone values found wherever they are, or as a block of lines; and thresholding. */
export interface RegionPass {
  segmentation: 'sparse' | 'block';
  adaptiveThreshold: boolean;
  /** Read as printed, not enlarged: large print enlarged is misread ('773 783 842 888' read '... 8838'). */
  asPrinted?: boolean;
}

/**
 * Reads the page's region again (enlarged, by how small its label's print is) and returns its lines (boxes in the
 * region's own pixels).
 */
export type RegionReader = (region: Box, pass: RegionPass, labelHeight: number) => Promise<PageLine[]>;

/**
 * Passes tried in turn until one gives a value of the field's shape: a box's grey fill or a white redaction
 * patch beside the print defeats one global threshold, and a value alone in its box is lost to block layout.
 */
const VALUE_PASSES: RegionPass[] = [
  { segmentation: 'sparse', adaptiveThreshold: false },
  { segmentation: 'sparse', adaptiveThreshold: true },
  { segmentation: 'sparse', adaptiveThreshold: false, asPrinted: true },
];
const BLOCK_PASSES: RegionPass[] = [
  { segmentation: 'block', adaptiveThreshold: true },
  { segmentation: 'sparse', adaptiveThreshold: true },
];

export type AnchoredField = 'amountDue' | 'dueDate' | 'serviceNumber' | 'issueDate' | 'period' | 'addressBlock' | 'holderName' | 'street' | 'settlement' | 'postalCode' | 'municipality' | 'state';

interface LabelSpec {
  field: AnchoredField;
  /** Alternatives, accent-folded words; the longest alternative found wins over shorter ones sharing words. */
  texts: string[];
  /** Where the value is printed: after the label on its line, or below it (in the label's box). */
  where: 'right' | 'below' | 'right-or-below';
  /**
   * The second line of a label stacked on two lines in a light-on-dark band ('Periodo / Consumo'), counted only
   * there and as its line's first word: small band print often loses the first line ('Periodo' read 'Permos').
   */
  bandSecondLine?: string[];
  /** Another field whose value ends the label's own row ('Amount Due By Jul 27, 2011 ... $191.69'). */
  rowAlsoHolds?: AnchoredField;
}

/**
 * Labels of Mexican bills. A label also printed inside a longer one ('PERIODO FACTURADO' inside 'TOTAL A PAGAR
 * DEL PERIODO FACTURADO') is consumed by the longer one.
 */
export const PROOF_LABELS: readonly LabelSpec[] = [
  // English and French twins of the amount, due date and issue date labels (US and French sample bills). The US
  // bill's 'Due Date' / 'Amount Due' header row is a dark band whose values sit inside it: read under the band they
  // gave another amount ($0.00), so those two are not labels here.
  { field: 'amountDue', texts: ['TOTAL A PAGAR DEL PERIODO FACTURADO', 'TOTAL A PAGAR', 'IMPORTE A PAGAR', 'MONTO A PAGAR', 'A PAYER TTC', 'MONTANT A PAYER'], where: 'right-or-below' },
  {
    field: 'dueDate',
    texts: ['FECHA LIMITE DE PAGO', 'LIMITE DE PAGO', 'PAGAR ANTES DEL', 'PAGAR ANTES DE', 'FECHA DE VENCIMIENTO', 'DATE DECHEANCE', 'ECHEANCE'],
    where: 'right-or-below',
  },
  { field: 'dueDate', texts: ['AMOUNT DUE BY'], where: 'right-or-below', rowAlsoHolds: 'amountDue' },
  { field: 'serviceNumber', texts: ['NUMERO DE SERVICIO', 'NO. DE SERVICIO', 'NO DE SERVICIO', 'NUM. DE SERVICIO', 'TELEFONO'], where: 'right-or-below' },
  { field: 'issueDate', texts: ['FECHA DE EMISION', 'FECHA DE EXPEDICION', 'FECHA DE FACTURACION', 'FECHA DE CORTE', 'FACTURE DU', 'BILL DATE', 'STATEMENT DATE'], where: 'right-or-below' },
  { field: 'period', texts: ['PERIODO FACTURADO', 'PERIODO DE CONSUMO', 'PERIODO CONSUMO', 'PERIODO'], where: 'right-or-below', bandSecondLine: ['CONSUMO'] },
  // 'Service to:' heads the US bill's service address; the French bill names its client under 'Nom du client'.
  { field: 'addressBlock', texts: ['NOMBRE Y DOMICILIO', 'Y DOMICILIO', 'DOMICILIO DE SERVICIO', 'SERVICE TO', 'SERVICE ADDRESS'], where: 'below' },
  { field: 'holderName', texts: ['NOMBRE DEL TITULAR', 'NOMBRE DEL CLIENTE', 'NOMBRE', 'TITULAR'], where: 'right' },
  { field: 'holderName', texts: ['NOM DU CLIENT', 'NOM DU TITULAIRE'], where: 'below' },
  { field: 'street', texts: ['DOMICILIO', 'DIRECCION'], where: 'right' },
  { field: 'settlement', texts: ['COLONIA'], where: 'right' },
  { field: 'postalCode', texts: ['CODIGO POSTAL', 'C.P.'], where: 'right' },
  { field: 'municipality', texts: ['MUNICIPIO', 'DELEGACION', 'ALCALDIA'], where: 'right' },
  { field: 'state', texts: ['ESTADO'], where: 'right' },
];

/** A label found on the page: its words' box and where its line's words continue. */
export interface FoundLabel {
  field: AnchoredField;
  /** Where its value is printed (a field may have labels of both kinds: 'Nombre:' and 'Nom du client'). */
  where: LabelSpec['where'];
  rowAlsoHolds?: AnchoredField;
  text: string;
  box: Box;
  /** Words after the label on its line (the value of a 'Label: value' layout). */
  after: PageWord[];
  band?: Box;
}

const wordKey = (text: string): string => foldText(text).replace(/[^A-ZÑ0-9.]/g, '');

/** A printed label word as read: exact, or one misread letter from five letters on ('servici', 'Foderal'). */
function sameLabelWord(read: string, label: string): boolean {
  const a = read.replace(/\.$/, '');
  const b = label.replace(/\.$/, '');
  if (a === b) return true;
  if (b.length < 5) return false;
  return editDistance(a, b) <= 1;
}

/**
 * A printed label as read: each word the same (see sameLabelWord), or, for a label of several words and ten letters
 * or more, one misread letter in the whole ('Mom du client': a short word's letter, which sameLabelWord never allows
 * alone).
 */
function sameLabel(read: readonly string[], label: readonly string[]): boolean {
  if (label.every((w, k) => sameLabelWord(read[k] ?? '', w))) return true;
  const joined = label.join('').replace(/\./g, '');
  return label.length >= 2 && joined.length >= 10 && editDistance(read.join('').replace(/\./g, ''), joined) <= 1;
}

const union = (boxes: Box[]): Box => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

/** Every label on the page, longest alternatives first; each word belongs to one label at most. */
export function findLabels(lines: readonly PageLine[]): FoundLabel[] {
  const alternatives = PROOF_LABELS.flatMap((spec) => spec.texts.map((text) => ({ spec, text, words: text.split(' ') }))).sort(
    (a, b) => b.words.length - a.words.length || b.text.length - a.text.length,
  );
  const used = new Set<PageWord>();
  const found: FoundLabel[] = [];
  for (const { spec, text, words } of alternatives) {
    for (const line of lines) {
      const keys = line.words.map((w) => wordKey(w.text).replace(/:$/, ''));
      for (let i = 0; i + words.length <= keys.length; i++) {
        const run = line.words.slice(i, i + words.length);
        if (run.some((w) => used.has(w))) continue;
        if (
          !sameLabel(
            keys.slice(i, i + words.length).map((k) => k.replace(/:$/, '')),
            words,
          )
        )
          continue;
        // The labels of a 'Label: value' form are common words ('Estado de cuenta', the issuer's own 'C.P. 06600'):
        // they count only with their colon.
        const colon = /:\s*$/.test(run.at(-1)!.text) || /^:/.test(line.words[i + words.length]?.text ?? '');
        if (spec.where === 'right' && !colon) continue;
        run.forEach((w) => used.add(w));
        found.push({
          field: spec.field,
          where: spec.where,
          ...(spec.rowAlsoHolds ? { rowAlsoHolds: spec.rowAlsoHolds } : {}),
          text,
          box: union(run.map((w) => w.box)),
          after: line.words.slice(i + words.length),
          ...(line.band ? { band: line.band } : {}),
        });
      }
    }
  }
  for (const spec of PROOF_LABELS) {
    for (const text of spec.bandSecondLine ?? []) {
      for (const line of lines) {
        const first = line.words[0];
        // Two misread letters of seven: this word is looked for only where such a header is printed.
        if (!line.band || !first || used.has(first) || editDistance(wordKey(first.text), text) > 2) continue;
        used.add(first);
        found.push({ field: spec.field, where: spec.where, text, box: first.box, after: line.words.slice(1), band: line.band });
      }
    }
  }
  return found;
}

/** Uppercased, OCR stray marks removed; accents kept as read. */
function printed(text: string): string {
  return text
    .replace(/[|_~«»"“”`]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:-]+|[\s,;:-]+$/g, '')
    .trim()
    .toUpperCase();
}

/** '$909.00', '$ 1,563.18': the amount as printed (spaces dropped), or undefined. */
export function amountIn(text: string): string | undefined {
  const m = /\$\s?(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})(?!\d)/.exec(text) ?? /(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})(?!\d)/.exec(text);
  if (m) return `$${m[1]}.${m[2]}`;
  // A euro amount as printed: decimal comma, the sign after it ('1479,85 €'); an 'E' read for the sign is not one.
  const euro = /(?<![\d.,])(\d{1,3}(?:[ .]\d{3})+|\d+),(\d{2})\s?€/.exec(text);
  return euro ? `${euro[1]},${euro[2]} €` : undefined;
}

/** A CFE service number (12 digits) or a telephone line (10 digits), spaces as printed; else undefined. */
export function serviceNumberIn(text: string): string | undefined {
  for (const m of text.matchAll(/(?<![\dA-Z])\d[\d ]{8,16}\d(?![\dA-Z])/g)) {
    const digits = m[0].replace(/ /g, '');
    if (digits.length === 12 || digits.length === 10) return m[0].replace(/\s+/g, ' ');
  }
  return undefined;
}

/** The value of a field from text read where its label says it is; undefined when it does not have the shape. */
export function fieldValue(field: AnchoredField, text: string): Partial<ProofFields> {
  switch (field) {
    case 'amountDue': {
      const amount = amountIn(text);
      return amount ? { amountDue: amount } : {};
    }
    case 'dueDate': {
      const date = datesIn(text)[0];
      return date ? { dueDate: date } : {};
    }
    case 'issueDate': {
      const date = datesIn(text)[0];
      return date ? { issueDate: date } : {};
    }
    case 'serviceNumber': {
      const number = serviceNumberIn(text);
      return number ? { serviceNumber: number } : {};
    }
    case 'period': {
      const dates = datesIn(text);
      if (dates.length < 2) return {};
      const [from, to] = [dates[0]!, dates[1]!].sort();
      return from === to ? {} : { periodFrom: from, periodTo: to };
    }
    case 'holderName': {
      const name = printed(text);
      return /^[A-ZÁÉÍÓÚÜÑ. ]+$/.test(name) && name.split(' ').length >= 2 ? { holderName: name } : {};
    }
    case 'street': {
      const street = printed(text);
      return /[A-ZÁÉÍÓÚÜÑ]{2}/.test(street) && /\d|S\/N/.test(street) ? splitStreet(street) : {};
    }
    case 'settlement': {
      const settlement = printed(text);
      return /^[A-ZÁÉÍÓÚÜÑ0-9. ]{3,}$/.test(settlement) && /[A-ZÁÉÍÓÚÜÑ]{3}/.test(settlement) ? { settlement } : {};
    }
    case 'postalCode': {
      const m = /(?<!\d)(\d{5})(?!\d)/.exec(text);
      return m ? { postalCode: m[1] } : {};
    }
    case 'municipality':
    case 'state': {
      const place = printed(text);
      return /^[A-ZÁÉÍÓÚÜÑ. ]{3,}$/.test(place) ? { [field]: place } : {};
    }
    case 'addressBlock':
      return readAddressBlock(text.split('\n'));
  }
}

const CP_LINE = /\bC\s?\.?\s?P\s?\.?\s*:?\s*(\d{5})(?!\d)(.*)$/i;
const PLACE_LINE = /^([A-ZÁÉÍÓÚÜÑ][A-ZÁÉÍÓÚÜÑ. ]+),\s*([A-ZÁÉÍÓÚÜÑ][A-ZÁÉÍÓÚÜÑ. ]+)$/;

function placeOf(text: string): Pick<ProofFields, 'municipality' | 'state'> {
  const m = PLACE_LINE.exec(printed(text));
  return m ? { municipality: m[1]!.trim(), state: m[2]!.trim() } : {};
}

/** Two to six words of letters; a middle initial ('JANE Q PUBLIC') counts, but not as one of the two. */
const looksLikeName = (line: string): boolean => {
  const words = line.split(' ');
  const full = words.filter((w) => /^[A-ZÁÉÍÓÚÜÑ.]{2,}$/.test(w)).length;
  return full >= 2 && words.length <= 6 && words.every((w) => /^[A-ZÁÉÍÓÚÜÑ.]+$/.test(w));
};

/**
 * The last line of a US or French address ('ANYTOWN, PA 18062', '75001 PARIS'): a foreign bill, whose street
 * lines print the number first ('123 MAIN ST'). The INE issued abroad serves people who live abroad, and their
 * bills are these.
 */
const US_PLACE_LINE = /^([A-Z][A-Z. ]*[A-Z.]),?\s+([A-Z]{2})\s+(\d{5})(?:-\d{4})?$/;
const FR_PLACE_LINE = /^(\d{5})\s+([A-ZÀÂÉÈÊËÎÏÔÙÛÜÇ][A-ZÀÂÉÈÊËÎÏÔÙÛÜÇ' -]*[A-ZÀÂÉÈÊËÎÏÔÙÛÜÇ])(?:\s+CEDEX(?:\s+\d{1,2})?)?$/;

function foreignPlace(line: string): Pick<ProofFields, 'postalCode' | 'municipality' | 'state'> | null {
  const us = US_PLACE_LINE.exec(line);
  if (us) return { municipality: us[1]!, state: us[2]!, postalCode: us[3]! };
  const fr = FR_PLACE_LINE.exec(line);
  return fr ? { postalCode: fr[1]!, municipality: fr[2]! } : null;
}

/** '123 MAIN ST', '123 RUE DE L’IMAGINAIRE': the number first, then the street's name. */
function numberFirstStreet(line: string): Pick<ProofFields, 'street' | 'exteriorNumber'> | null {
  const m = /^(\d{1,5}[A-Z]?)(?:\s*,)?\s+([A-ZÀ-Ü][A-ZÀ-Ü0-9'’. -]*[A-ZÀ-Ü0-9.])$/.exec(line);
  return m ? { exteriorNumber: m[1]!, street: m[2]! } : null;
}

/**
 * A foreign address block: name, street (number first), maybe a second street line, and the place line. A US place
 * line ('CITY, ST 12345') is taken on its own (its street line may have been lost: the place line is then never
 * misread as a street); a French one ('75001 PARIS') only with a number-first street above it, so a Mexican block
 * printing '06600 CUAUHTÉMOC' without 'C.P.' keeps the Mexican reading. Nothing else is guessed.
 */
function readForeignBlock(lines: readonly string[]): Partial<ProofFields> | null {
  const placeAt = lines.findIndex((l) => foreignPlace(l) !== null);
  if (placeAt < 0) return null;
  const head = lines.slice(0, placeAt);
  const streets = head.map(numberFirstStreet);
  const streetAt = streets.findIndex((street) => street !== null);
  if (streetAt < 0 && !US_PLACE_LINE.test(lines[placeAt]!)) return null;
  const out: Partial<ProofFields> = { ...foreignPlace(lines[placeAt]!)!, ...(streets[streetAt] ?? {}) };
  if (streetAt !== 0 && head.length > 0 && looksLikeName(head[0]!)) out.holderName = head[0]!;
  return out;
}

/**
 * A street line of a Mexican block: name then number ('AV JUAREZ 123'); a street whose name starts with a number
 * ('5 DE MAYO', '16 DE SEPTIEMBRE') keeps it. A line that starts with three digits or more and ends with no number
 * is a number-first street whose place line was not read ('2289 WASHINGTON AVE').
 */
function mexicanStreet(line: string): Partial<ProofFields> {
  const split = splitStreet(line);
  if (split.exteriorNumber) return split;
  const m = /^(\d{3,5})\s+([A-ZÁÉÍÓÚÜÑ].*)$/.exec(printed(line));
  return m ? { exteriorNumber: m[1]!, street: m[2]! } : split;
}

/**
 * The name-and-address block under 'Nombre y Domicilio' (CFE): name, street and number, 'COL ...', 'C.P. 00000'
 * (the place after it or on the next line), 'MUNICIPIO, ESTADO'. Lines are placed by what they hold, never by
 * position alone: a line that holds none of those shapes is left out. A US or French block (below 'Service to:')
 * is read by its own conventions.
 */
export function readAddressBlock(rawLines: readonly string[]): Partial<ProofFields> {
  const lines = rawLines.map(printed).filter((l) => l !== '');
  const foreign = readForeignBlock(lines);
  if (foreign) return foreign;
  const out: Partial<ProofFields> = {};
  const cpAt = lines.findIndex((l) => CP_LINE.test(foldText(l)));
  if (cpAt >= 0) {
    const m = CP_LINE.exec(foldText(lines[cpAt]!))!;
    out.postalCode = m[1]!;
    const rest = lines[cpAt]!.slice(lines[cpAt]!.length - m[2]!.length);
    Object.assign(out, placeOf(rest.trim()) ?? {});
  }
  if (!out.municipality) {
    const placeAt = lines.findIndex((l, i) => (cpAt < 0 || i > cpAt) && PLACE_LINE.test(l));
    if (placeAt >= 0) Object.assign(out, placeOf(lines[placeAt]!));
  }
  const end = cpAt >= 0 ? cpAt : lines.findIndex((l) => PLACE_LINE.test(l));
  const head = lines.slice(0, end >= 0 ? end : lines.length);
  const colAt = head.findIndex((l) => /^COL(ONIA)?\b\.?/.test(foldText(l)));
  if (colAt >= 0) {
    const settlement = printed(head[colAt]!.replace(/^\s*col(onia)?\b\.?:?/i, ''));
    if (settlement) out.settlement = settlement;
  }
  const streetAt = head.findIndex((l, i) => i !== colAt && /[A-ZÁÉÍÓÚÜÑ]{2}/.test(l) && /\d|S\/N/.test(l) && !/:/.test(l));
  if (streetAt >= 0) Object.assign(out, mexicanStreet(head[streetAt]!));
  // The name is the block's first line when it has a name's shape and comes before the street.
  // A lone line is no name: it is a place or a street whose comma or number was misread ('HERMOSILLO. SON.').
  if (lines.length > 1 && head.length > 0 && looksLikeName(head[0]!) && (streetAt < 0 || streetAt > 0) && colAt !== 0) out.holderName = head[0]!;
  return out;
}

const isSpeck = (w: PageWord): boolean => w.text.replace(/[^\p{L}\p{N}]/gu, '').length <= 1;

/**
 * Words of a re-read region as text, one line per line. With a minimum confidence (names and streets), specks at
 * either end of a line (box borders read as '|') are dropped and a line with any doubtful word is dropped whole:
 * half a settlement is a wrong settlement, an empty one is typed by the person. Words of digits (a postal code
 * or a number, whose shape is checked later) need less.
 */
/** The first line of a re-read region that holds a word, as regionText gives it ('' when it has a doubtful word). */
export function firstRegionLine(lines: readonly PageLine[], minConfidence: number): string {
  const first = lines.find((line) => line.words.some((w) => !isSpeck(w)));
  return first ? regionText([first], minConfidence) : '';
}

export function regionText(lines: readonly PageLine[], minConfidence: number): string {
  const kept = lines.map((line) => {
    const words = [...line.words];
    while (words.length > 0 && isSpeck(words[0]!)) words.shift();
    while (words.length > 0 && isSpeck(words.at(-1)!)) words.pop();
    const doubtful = words.some((w) => w.confidence < (/\d{3}/.test(w.text) ? minConfidence * 0.5 : minConfidence));
    return doubtful ? '' : words.map((w) => w.text).join(' ');
  });
  return kept.filter((t) => t.trim() !== '').join('\n');
}

const height = (b: Box): number => b.y1 - b.y0;
const within = (inner: Box, outer: Box): boolean => {
  const x = (inner.x0 + inner.x1) / 2;
  const y = (inner.y0 + inner.y1) / 2;
  return x >= outer.x0 && x < outer.x1 && y >= outer.y0 && y < outer.y1;
};
const overlapsX = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1;

/**
 * Where a label's value is printed below it: the box under the label, as wide as the label and half again on
 * each side (CFE centres values under their band), down to the next label or a few lines, never into the next
 * column (the nearest label to the right on the same rows).
 */
const BELOW_BAND = 2.5;

export function regionBelow(label: FoundLabel, labels: readonly FoundLabel[], page: { width: number; height: number }, bands: readonly Box[] = []): Box {
  const h = Math.max(8, height(label.box));
  const w = label.box.x1 - label.box.x0;
  const block = label.field === 'addressBlock';
  // A name under its label ('Nom du client') runs as far as a block's lines: a narrower box cuts a long name short.
  const wide = block || label.field === 'holderName';
  let x0 = wide ? label.box.x0 - 6 * h : label.box.x0 - 0.5 * w;
  let x1 = wide ? label.box.x0 + 24 * h : label.box.x1 + 0.5 * w;
  // A label on a band (white on green) heads a box or a table column: its value starts under the band and runs
  // at most two and a half band heights down (one line of large print, or CFE's period on three lines: '15 SEP 17',
  // 'AL', '13 NOV 17'); the band's height is measured, a label's box as read is not always its letters' height.
  const y0 = label.band ? label.band.y1 + 2 : label.box.y1 + 0.15 * h;
  let y1 = label.band ? label.band.y1 + BELOW_BAND * height(label.band) : label.box.y1 + (block ? 9 : 3.2) * h;
  // ...and never outside the band's own box (the issuer's 'C.P. 06600' beside the amount box).
  if (label.band) {
    x0 = Math.max(x0, label.band.x0);
    x1 = Math.min(x1, label.band.x1);
  }
  const bottom = y1;
  for (const other of labels) {
    if (other === label) continue;
    const sameRows = other.box.y0 < Math.max(bottom, label.box.y1 + 3 * h) && other.box.y1 > label.box.y0 - 3 * h;
    if (sameRows && other.box.x0 > label.box.x1 && other.box.x0 < x1) x1 = other.box.x0 - h;
    if (sameRows && other.box.x1 < label.box.x0 && other.box.x1 > x0) x0 = other.box.x1 + h;
    if (other.box.y0 > label.box.y1 && other.box.y0 < y1 && overlapsX(other.box, { ...label.box, x0, x1 })) y1 = other.box.y0 - 0.1 * h;
  }
  // Under a band, the next band below heads another box.
  for (const band of label.band ? bands : []) {
    if (band.y0 > y0 && band.y0 < y1 && overlapsX(band, { ...label.box, x0, x1 })) y1 = band.y0 - 1;
  }
  // A label in plain print (CFE's 'Nombre y Domicilio') is closed by the banded boxes of the next column, even when
  // their labels were not read (a blurred phone photo): their borders would otherwise be read as letters.
  if (!label.band) {
    for (const band of bands) {
      const sameRows = band.y0 < y1 && band.y1 > y0;
      if (sameRows && band.x0 > label.box.x1 && band.x0 < x1) x1 = band.x0 - 0.5 * h;
    }
  }
  return {
    x0: Math.max(0, Math.round(x0)),
    y0: Math.max(0, Math.round(y0)),
    x1: Math.min(page.width, Math.round(x1)),
    y1: Math.min(page.height, Math.round(y1)),
  };
}

/** The words after a label on its line, up to a wide gap (another column) or the next label. */
function wordsAfter(label: FoundLabel, labels: readonly FoundLabel[]): string {
  const h = Math.max(8, height(label.box));
  // An amount, a date or a number may be printed at the far end of its label's row (and has a shape to check);
  // a name or a street follows its label closely.
  const shaped = ['amountDue', 'dueDate', 'serviceNumber', 'issueDate', 'period'].includes(label.field);
  const out: PageWord[] = [];
  let right = label.box.x1;
  for (const word of label.after) {
    if (word.box.x0 - right > (shaped && out.length === 0 ? 25 : 4) * h) break;
    if (labels.some((l) => l !== label && l.box.x0 <= word.box.x0 && word.box.x1 <= l.box.x1 && overlapsX(l.box, word.box) && Math.abs(l.box.y0 - word.box.y0) < h)) break;
    out.push(word);
    right = word.box.x1;
  }
  return out
    .map((w) => w.text)
    .join(' ')
    .replace(/^\s*[:.]\s*/, '');
}

/** The words of a band's reading to the right of a label on the same row, left to right. */
function wordsOnBandRow(label: Box, band: Box, lines: readonly PageLine[]): PageWord[] {
  const middle = (b: Box) => (b.y0 + b.y1) / 2;
  return lines
    .filter((line) => line.band === band)
    .flatMap((line) => line.words)
    .filter((w) => w.box.x0 > label.x1 && middle(w.box) > label.y0 && middle(w.box) < label.y1)
    .sort((a, b) => a.box.x0 - b.box.x0);
}

/** The label that counts when a bill prints it twice (two bills on one page, or the detachable payment slip): the first in reading order. */
function firstInReadingOrder(labels: FoundLabel[]): FoundLabel | undefined {
  if (labels.length === 0) return undefined;
  const top = Math.min(...labels.map((l) => l.box.y0));
  const h = Math.max(...labels.map((l) => height(l.box)));
  return labels.filter((l) => l.box.y0 <= top + 3 * h).sort((a, b) => a.box.x0 - b.box.x0)[0];
}

/** Words below this confidence in a re-read region are print too faint or covered (a redacted name) to trust. */
const REGION_MIN_CONFIDENCE = 55;

export interface AnchoredReading {
  fields: ProofFields;
  /** Fields whose label was found (read or left empty): the layout fallback does not fill those. */
  labelled: Set<keyof ProofFields>;
}

const FIELDS_OF: Record<AnchoredField, Array<keyof ProofFields>> = {
  amountDue: ['amountDue'],
  dueDate: ['dueDate'],
  serviceNumber: ['serviceNumber'],
  issueDate: ['issueDate'],
  period: ['periodFrom', 'periodTo'],
  addressBlock: ['holderName', 'street', 'exteriorNumber', 'interiorNumber', 'settlement', 'postalCode', 'municipality', 'state'],
  holderName: ['holderName'],
  street: ['street', 'exteriorNumber', 'interiorNumber'],
  settlement: ['settlement'],
  postalCode: ['postalCode'],
  municipality: ['municipality'],
  state: ['state'],
};

/** Reads every labelled field: after the label, else (where the layout prints it so) in the region below it. */
export async function readAnchored(lines: readonly PageLine[], page: { width: number; height: number }, readRegion: RegionReader, pageBands: readonly Box[] = []): Promise<AnchoredReading> {
  const bands = [...new Set([...pageBands, ...lines.flatMap((l) => (l.band ? [l.band] : []))])];
  // A label the page read itself on a band (tesseract reads some light-on-dark print) heads that band's box too.
  const labels = findLabels(lines).map((l) => {
    const band = l.band ?? bands.find((b) => within(l.box, b));
    return band ? { ...l, band } : l;
  });
  const fields: ProofFields = {};
  const labelled = new Set<keyof ProofFields>();
  const fields0 = [...new Set(labels.map((l) => l.field))];
  for (const field of fields0) {
    const label = firstInReadingOrder(labels.filter((l) => l.field === field))!;
    let value: Partial<ProofFields> = {};
    if (label.where !== 'below') value = fieldValue(field, wordsAfter(label, labels));
    if (Object.keys(value).length === 0 && label.where !== 'right') {
      const region = regionBelow(label, labels, page, bands);
      if (region.x1 - region.x0 > 4 && region.y1 - region.y0 > 4) {
        // An amount, a date or a number has a shape to check; words of a name or a street need their confidence.
        const shaped = field !== 'addressBlock' && field !== 'holderName';
        for (const pass of shaped ? VALUE_PASSES : BLOCK_PASSES) {
          const read = await readRegion(region, pass, height(label.box));
          // A name is one line: the region's first, or none when that one is doubtful (the next is another label).
          value = fieldValue(field, field === 'holderName' ? firstRegionLine(read, REGION_MIN_CONFIDENCE) : regionText(read, shaped ? 0 : REGION_MIN_CONFIDENCE));
          if (Object.keys(value).length > 0) break;
        }
      }
    }
    // The page read a band's label but not the value printed at its other end ('à payer (TTC) … 1838,89 €'), nor
    // was it under the band: the band's own reading holds it, on another line. Last, as the region's enlarged
    // reading is the surer one when it finds a value.
    if (Object.keys(value).length === 0 && label.band && label.where !== 'below' && label.after.length === 0) {
      value = fieldValue(
        field,
        wordsOnBandRow(label.box, label.band, lines)
          .map((w) => w.text)
          .join(' '),
      );
    }
    // A field read under its own label ('Colonia:') is not overwritten by the block's reading.
    for (const key of FIELDS_OF[field]) {
      labelled.add(key);
      if (value[key] !== undefined && (fields[key] === undefined || field !== 'addressBlock')) fields[key] = value[key] as never;
    }
  }
  for (const label of labels) {
    const other = label.rowAlsoHolds;
    if (!other || FIELDS_OF[other].some((key) => fields[key] !== undefined)) continue;
    const value = fieldValue(other, label.after.map((w) => w.text).join(' '));
    for (const key of FIELDS_OF[other]) {
      labelled.add(key);
      if (value[key] !== undefined) fields[key] = value[key] as never;
    }
  }
  if (fields.holderName && !fields.street && !fields.postalCode) {
    const block = blockUnderName(lines, fields.holderName);
    for (const [key, value] of Object.entries(block) as Array<[keyof ProofFields, string]>) {
      // The name printed twice: the reading of it that kept its accents (a phone photo's small box loses them).
      if (key === 'holderName' && foldText(value) === foldText(fields.holderName) && markCount(value) > markCount(fields.holderName)) fields.holderName = value;
      if (fields[key] !== undefined) continue;
      fields[key] = value;
      labelled.add(key);
    }
  }
  return { fields, labelled };
}

/**
 * The holder's mailing block (what an envelope's window shows): a line that is the holder's name as read under its
 * label (give or take an accent or a letter per ten), and the lines printed right under it at the same left edge,
 * up to a 'Label:' line. Read when no label gave the address (the French bill prints none over it); taken only
 * when it holds a street or a postal code.
 */
export function blockUnderName(lines: readonly PageLine[], name: string): Partial<ProofFields> {
  const rows = lines.filter((l) => l.words.length > 0).map((l) => ({ text: l.words.map((w) => w.text).join(' '), box: union(l.words.map((w) => w.box)) }));
  const folded = foldText(name);
  for (const start of rows) {
    // The same name read twice may differ by an accent or a letter (a phone photo).
    const seen = foldText(printed(start.text));
    if (seen !== folded && (Math.abs(seen.length - folded.length) > 2 || editDistance(seen, folded) > Math.max(1, Math.floor(folded.length / 10)))) continue;
    const block = [start.text];
    let last = start.box;
    while (block.length < 5) {
      const h = Math.max(8, height(last));
      const next = rows.filter((r) => r.box.y0 > last.y0 + 0.5 * h && r.box.y0 < last.y1 + 1.5 * h && Math.abs(r.box.x0 - start.box.x0) < 2 * h).sort((a, b) => a.box.y0 - b.box.y0)[0];
      if (!next || next.text.includes(':')) break;
      block.push(next.text);
      last = next.box;
    }
    const read = readAddressBlock(block);
    if (read.street || read.postalCode) return read;
  }
  return {};
}
