/**
 * Reading a proof of address (utility, landline, internet or gas bill) from the lines OCR found on the page.
 * Two layouts are common on Mexican bills: a labelled one ('Nombre:', 'Domicilio:', 'Colonia:', 'C.P.:') and
 * the unlabelled address block of electricity bills (name, street, 'COL ...', 'C.P. 00000 MUNICIPIO, ESTADO').
 * Labels are found first; the block is found from its postal-code line otherwise.
 */

/** A line (or one column's part of a line) as read, with its position on the page when known. */
export interface ProofLine {
  text: string;
  left?: number;
  top?: number;
  height?: number;
}

export interface ProofFields {
  holderName?: string;
  street?: string;
  exteriorNumber?: string;
  interiorNumber?: string;
  settlement?: string;
  postalCode?: string;
  municipality?: string;
  state?: string;
  /** ISO date (YYYY-MM-DD): printed as the issue date, else the end of the billed period. */
  issueDate?: string;
  /** The amount to pay as printed ('$909.00'). */
  amountDue?: string;
  /** ISO date: the payment due date ('Fecha límite de pago', 'Pagar antes de'). */
  dueDate?: string;
  /** The CFE service number (12 digits) or the Telmex line (10 digits), spaces as printed. */
  serviceNumber?: string;
  /** ISO dates: the billed period. */
  periodFrom?: string;
  periodTo?: string;
}

/** Uppercase without accents (Ñ kept), single spaces: what labels and words are compared on. */
export function foldText(s: string): string {
  return s
    .toUpperCase()
    .replace(/Ñ/g, '\u0000')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u0000/g, 'Ñ')
    .replace(/\s+/g, ' ')
    .trim();
}

const MONTHS: Record<string, number> = {
  ENE: 1,
  ENERO: 1,
  FEB: 2,
  FEBRERO: 2,
  MAR: 3,
  MARZO: 3,
  ABR: 4,
  ABRIL: 4,
  MAY: 5,
  MAYO: 5,
  JUN: 6,
  JUNIO: 6,
  JUL: 7,
  JULIO: 7,
  AGO: 8,
  AGOSTO: 8,
  SEP: 9,
  SEPT: 9,
  SEPTIEMBRE: 9,
  SETIEMBRE: 9,
  OCT: 10,
  OCTUBRE: 10,
  NOV: 11,
  NOVIEMBRE: 11,
  DIC: 12,
  DICIEMBRE: 12,
};

/** A bill's dates fall in these years; another year is a misread digit ('7076' for 2026 on a phone photo). */
const PLAUSIBLE_YEARS = { from: 1990, to: 2100 };

function isoDate(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < PLAUSIBLE_YEARS.from || y > PLAUSIBLE_YEARS.to) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** Every date written on a line, in order: 15/01/2026, 15-01-26, 15 ENE 2026, 15 DE ENERO DE 2026. */
export function datesIn(line: string): string[] {
  const text = foldText(line).replace(/(?<=\d)[O](?=\d)/g, '0');
  const found: Array<{ at: number; iso: string }> = [];
  for (const m of text.matchAll(/(?<!\d)(\d{1,2})\s?[/\-.]\s?(\d{1,2})\s?[/\-.]\s?(\d{4}|\d{2})(?!\d)/g)) {
    const iso = isoDate(fullYear(m[3]!), Number(m[2]), Number(m[1]));
    if (iso) found.push({ at: m.index, iso });
  }
  for (const m of text.matchAll(/(?<!\d)(\d{1,2})\s*(?:DE\s+)?([A-Z]{3,10})\.?\s*(?:DE\s+|DEL\s+)?[/-]?\s*(\d{4}|\d{2})(?!\d)/g)) {
    const month = MONTHS[m[2]!];
    if (!month) continue;
    const iso = isoDate(fullYear(m[3]!), month, Number(m[1]));
    if (iso) found.push({ at: m.index, iso });
  }
  // US bills: month first, a comma and the full year ('Jul 27, 2011').
  for (const m of text.matchAll(/\b([A-Z]{3,9})\.?\s*(\d{1,2}),\s*(\d{4})(?!\d)/g)) {
    const month = ENGLISH_MONTHS[m[1]!];
    const iso = month ? isoDate(Number(m[3]), month, Number(m[2])) : undefined;
    if (iso) found.push({ at: m.index, iso });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.iso);
}

const ENGLISH_MONTHS: Record<string, number> = {
  JAN: 1,
  JANUARY: 1,
  FEB: 2,
  FEBRUARY: 2,
  MAR: 3,
  MARCH: 3,
  APR: 4,
  APRIL: 4,
  MAY: 5,
  JUN: 6,
  JUNE: 6,
  JUL: 7,
  JULY: 7,
  AUG: 8,
  AUGUST: 8,
  SEP: 9,
  SEPT: 9,
  SEPTEMBER: 9,
  OCT: 10,
  OCTOBER: 10,
  NOV: 11,
  NOVEMBER: 11,
  DEC: 12,
  DECEMBER: 12,
};

const ISSUE_LABEL = /\b(EMISION|EXPEDICION|EXPEDIDO|EMITIDO|FECHA DE CORTE|FECHA DE FACTURA(CION)?)\b/;
const PERIOD_LABEL = /\bPERIODO\b/;

/** The issue date: a labelled one (also on the next line), else the end of the billed period. */
function issueDate(lines: string[]): string | undefined {
  for (const [i, line] of lines.entries()) {
    if (!ISSUE_LABEL.test(foldText(line))) continue;
    const date = datesIn(line)[0] ?? datesIn(lines[i + 1] ?? '')[0];
    if (date) return date;
  }
  for (const [i, line] of lines.entries()) {
    if (!PERIOD_LABEL.test(foldText(line))) continue;
    const dates = [...datesIn(line), ...datesIn(lines[i + 1] ?? '')];
    if (dates.length > 0) return dates.sort().at(-1);
  }
  return undefined;
}

/** OCR reads of digits as letters inside a number. */
function digitsOf(token: string): string {
  return token.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');
}

const CP_PATTERN = /\bC\s?\.?\s?P\s?\.?\s*:?\s*([0-9OQDILSBZ]{5})(?![0-9A-Z])/;

function postalCodeIn(folded: string): { code: string; rest: string } | undefined {
  const m = CP_PATTERN.exec(folded);
  // The holder's postal code opens its line ('C.P. 31081 ...', 'C.P.: 26990'); one inside a line of text is the
  // issuer's own address ('... Ciudad de México C.P. 06600.').
  if (!m || m.index > 1) return undefined;
  const code = digitsOf(m[1]!);
  if (!/^\d{5}$/.test(code)) return undefined;
  return { code, rest: folded.slice(m.index + m[0].length).trim() };
}

/** Printable value of a line: OCR stray marks removed, case kept as read (the bills print uppercase). */
function clean(value: string): string {
  return value
    .replace(/[|_~«»"“”`]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:-]+|[\s,;:-]+$/g, '')
    .trim()
    .toUpperCase();
}

/** 'AV INSURGENTES SUR 1234 INT 5' → street, exterior and interior number. */
export function splitStreet(value: string): Pick<ProofFields, 'street' | 'exteriorNumber' | 'interiorNumber'> {
  const text = clean(value);
  const m = /^(.*?[A-ZÁÉÍÓÚÑ.].*?)\s+(?:NO\.?\s*|NUM\.?\s*|#\s*)?(\d{1,5}\s?[A-Z]?|S\/N)(?:\s*,?\s*(?:INT\.?|INTERIOR|DEPTO\.?|DEP\.?|LOCAL)\s*([A-Z0-9-]{1,6}))?$/.exec(text);
  if (!m) return text ? { street: text } : {};
  return {
    street: m[1]!.replace(/[\s,]+$/, ''),
    exteriorNumber: m[2]!.replace(/\s+/g, ''),
    ...(m[3] ? { interiorNumber: m[3] } : {}),
  };
}

/** 'CUAUHTÉMOC, CDMX' or 'MUNICIPIO: X ESTADO: Y' after the postal code. */
const OTHER_COLUMN = /\s+(?:FECHA|LIMITE|TOTAL|CORTE|PAGO|PAGAR|PERIODO|IMPORTE|SALDO|NUMERO|NO\.|TARIFA|CUENTA|TELEFONO|MEDIDOR|RMU|SERVICIO)\b.*$/;

function placeAfterPostalCode(rest: string): Pick<ProofFields, 'municipality' | 'state'> {
  // Another column's label read onto the same line ('... MÉXICO LÍMITE DE PAGO: 31 OCT') ends the place.
  const own = rest.replace(OTHER_COLUMN, '').replace(/\s*[$\d].*$/, '');
  const text = clean(own.replace(/\b(MUNICIPIO|DELEGACION|ALCALDIA|ESTADO|EDO)\b\.?\s*:?/g, ','));
  const parts = text
    .split(',')
    .map((p) => clean(p))
    .filter((p) => p.length >= 2);
  return { ...(parts[0] ? { municipality: parts[0] } : {}), ...(parts[1] ? { state: parts[1] } : {}) };
}

const LABELS = {
  holderName: /^(?:NOMBRE(?: DEL (?:TITULAR|CLIENTE|USUARIO))?|TITULAR|CLIENTE|USUARIO)\s*:\s*(.+)$/,
  street: /^(?:DOMICILIO|DIRECCION|CALLE)\s*:\s*(.+)$/,
  settlement: /^(?:COLONIA|COL|FRACCIONAMIENTO|FRACC)\s*[:.]\s*(.+)$/,
  municipality: /\b(?:MUNICIPIO|DELEGACION|ALCALDIA)\s*:\s*([A-ZÑ .]+?)(?=\s+[A-Z]+\s*:|$)/,
  state: /\b(?:ESTADO|ENTIDAD)\s*:\s*([A-ZÑ .]+?)(?=\s+[A-Z]+\s*:|$)/,
};

/** A line that can be a person's name: two to six words of letters, no digits, no label. */
function looksLikeName(folded: string): boolean {
  if (/\d|:/.test(folded)) return false;
  const words = folded.split(' ').filter((w) => /^[A-ZÑ.]{2,}$/.test(w));
  return words.length >= 2 && words.length <= 6 && words.length >= folded.split(' ').length - 1;
}

/** Lines of the same column as `anchor` above it, nearest first (all lines above when positions are unknown). */
function columnAbove(all: ProofLine[], index: number): number[] {
  const anchor = all[index]!;
  const tolerance = (anchor.height ?? 0) * 3;
  const out: number[] = [];
  for (let i = index - 1; i >= 0; i--) {
    const line = all[i]!;
    if (anchor.left === undefined || line.left === undefined || Math.abs(line.left - anchor.left) <= tolerance) out.push(i);
  }
  return out;
}

export function parseProof(input: ReadonlyArray<string | ProofLine>): ProofFields {
  const entries = input
    .map((l) => (typeof l === 'string' ? { text: l } : l))
    .map((l) => ({ ...l, text: l.text.trim() }))
    .filter((l) => l.text !== '');
  const lines = entries.map((l) => l.text);
  const folded = lines.map(foldText);
  const out: ProofFields = {};

  // Labelled layout.
  for (const [i, line] of folded.entries()) {
    const original = clean(lines[i]!);
    const name = LABELS.holderName.exec(line);
    if (name && !out.holderName) out.holderName = clean(original.slice(original.indexOf(':') + 1));
    const street = LABELS.street.exec(line);
    if (street && !out.street) Object.assign(out, splitStreet(original.slice(original.indexOf(':') + 1)));
    const settlement = LABELS.settlement.exec(line);
    if (settlement && !out.settlement) out.settlement = clean(original.slice(original.search(/[:.]/) + 1));
    const municipality = LABELS.municipality.exec(line);
    if (municipality && !out.municipality) out.municipality = clean(municipality[1]!);
    const state = LABELS.state.exec(line);
    if (state && !out.state) out.state = clean(state[1]!);
  }

  // The postal code, and the unlabelled block above it: [name,] street, COL settlement.
  const cpIndex = folded.findIndex((l) => postalCodeIn(l) !== undefined);
  if (cpIndex >= 0) {
    const cp = postalCodeIn(folded[cpIndex]!)!;
    out.postalCode = cp.code;
    if (!out.municipality && !LABELS.municipality.test(folded[cpIndex]!)) Object.assign(out, placeAfterPostalCode(cp.rest));
    const above = columnAbove(entries, cpIndex);
    let k = 0;
    const at = () => above[k];
    if (at() !== undefined && /^COL(ONIA)?\b\.?/.test(folded[at()!]!)) {
      if (!out.settlement) out.settlement = clean(lines[at()!]!.replace(/^\s*col(onia)?\b\.?:?/i, ''));
      k += 1;
    }
    if (at() !== undefined && /\d|S\/N/.test(folded[at()!]!) && !/:/.test(folded[at()!]!)) {
      if (!out.street) Object.assign(out, splitStreet(lines[at()!]!));
      k += 1;
    }
    if (!out.holderName && at() !== undefined && looksLikeName(folded[at()!]!)) out.holderName = clean(lines[at()!]!);
  }

  const issued = issueDate(lines);
  if (issued) out.issueDate = issued;
  return out;
}
