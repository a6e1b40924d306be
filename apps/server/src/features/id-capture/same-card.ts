import { editDistance } from '../../domain/edit-distance.js';

/**
 * Whether a back belongs to the card whose front was read (docs/flow.md §4 "ID capture"): pure, on what the
 * engine read from both sides. The back's zone is trusted (its check digits passed); the front's print is
 * OCR, so each fact is compared within the tolerance of a misread character or two, never exactly.
 */
export interface SideRead {
  documentType: string;
  side: 'front' | 'back';
  ocrData: Record<string, unknown>;
  /** The zone's lines as read (the back of an INE or a DNI). */
  mrzLines?: readonly string[];
}

export type SameCardVerdict = { same: true; compared: string[] } | { same: false; reason: 'front_again' | 'other_document' | 'other_card'; detail: string };

/** Zones that open the back of each two-sided document the flow reads. */
const backZonePrefix: Record<string, RegExp> = { INE: /^ID[A-Z<]?MEX/, DNI_PERU: /^I[A-Z<]PER/ };

function text(data: Record<string, unknown>, key: string): string {
  const value = data[key];
  return typeof value === 'string' ? value.trim() : '';
}

/** Capitals without accents, Ñ as N, letters only: how a zone writes a printed name. */
function plainName(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim();
}

/** A printed DD/MM/YYYY date as a zone writes it, YYMMDD. */
function zoneDate(printed: string): string {
  const match = /^(\d{2})\/(\d{2})\/\d{2}(\d{2})$/.exec(printed);
  return match ? `${match[3]}${match[2]}${match[1]}` : '';
}

/** The birth date coded in a CURP (YYMMDD, positions 5 to 10). */
function curpDate(curp: string): string {
  return /^[A-Z]{4}\d{6}/.test(curp) ? curp.slice(4, 10) : '';
}

interface Zone {
  documentNumber: string;
  birth: string;
  expiry: string;
  /** Surnames then given names as the zone writes them, '<' as spaces. */
  surnames: string;
  given: string;
  section: string;
  /** The name field has no filler left: long names may be cut. */
  full: boolean;
}

function td1(lines: readonly string[]): Zone {
  const [l1 = '', l2 = '', l3 = ''] = lines;
  const [surnames = '', given = ''] = l3.replace(/<+$/, '').split('<<');
  const words = (s: string) => s.split('<').filter(Boolean).join(' ');
  return {
    documentNumber: l1.slice(5, 14).replace(/<+$/, ''),
    birth: l2.slice(0, 6),
    expiry: l2.slice(8, 14),
    surnames: words(surnames),
    given: words(given),
    section: l1.slice(17, 21),
    full: l3.length >= 30 && !l3.endsWith('<'),
  };
}

/**
 * The printed name against the zone's, allowing a misread character in five. A zone's name field that is full
 * (no filler at its end) may have cut the given names: the printed name is then compared only as far as the
 * zone goes.
 */
function namesAgree(front: Record<string, unknown>, zone: Zone): boolean {
  const zoneName = `${zone.surnames} ${zone.given}`.trim();
  if (!zoneName) return false;
  const surnames = plainName([text(front, 'apellidoPaterno'), text(front, 'apellidoMaterno')].join(' '));
  const whole = plainName(text(front, 'nombreCompleto'));
  // Without the split name, the whole name (read given names first) is set against the zone's in that order.
  const [printed, inZone] = surnames ? [`${surnames} ${plainName(text(front, 'nombres'))}`.trim(), zoneName] : [whole, `${zone.given} ${zone.surnames}`.trim()];
  if (!printed) return false;
  const compared = zone.full && printed.length > inZone.length ? printed.slice(0, inZone.length) : printed;
  const limit = Math.max(2, Math.floor(inZone.length / 5));
  return editDistance(compared, inZone, limit) <= limit;
}

/** Two digit strings that differ in at most one character (one misread digit). */
function nearly(a: string, b: string): boolean {
  return a.length === b.length && editDistance(a, b, 1) <= 1;
}

export function sameCard(front: SideRead, back: SideRead): SameCardVerdict {
  if (back.side === 'front') {
    return back.documentType === front.documentType
      ? { same: false, reason: 'front_again', detail: 'the image shows a front, not the back of the card' }
      : { same: false, reason: 'other_document', detail: `the image shows the front of a ${back.documentType}` };
  }
  if (back.documentType !== front.documentType) {
    return { same: false, reason: 'other_document', detail: `a ${back.documentType} back after a ${front.documentType} front` };
  }
  const prefix = backZonePrefix[front.documentType];
  const lines = back.mrzLines ?? [];
  if (!prefix) return { same: false, reason: 'other_document', detail: `a ${front.documentType} has no back to read` };
  if (lines.length !== 3 || !prefix.test(lines[0] ?? '')) {
    return { same: false, reason: 'front_again', detail: 'no zone of the back of this document was found' };
  }
  const zone = td1(lines);
  const f = front.ocrData;
  const compared: string[] = [];
  const differs: string[] = [];
  const compare = (name: string, printed: string, inZone: string, agree: (a: string, b: string) => boolean) => {
    if (!printed || !inZone) return;
    compared.push(name);
    if (!agree(printed, inZone)) differs.push(name);
  };
  if (front.documentType === 'INE' && !/^\d{9}$/.test(zone.documentNumber)) {
    return { same: false, reason: 'front_again', detail: 'the zone holds no CIC: it is not the back of an INE' };
  }
  compared.push('nombre');
  if (!namesAgree(f, zone)) differs.push('nombre');
  const birth = zoneDate(text(f, 'fechaNacimiento')) || curpDate(text(f, 'curp'));
  compare('fechaNacimiento', birth, zone.birth, nearly);
  if (front.documentType === 'DNI_PERU') compare('dni', text(f, 'dni'), zone.documentNumber, (a, b) => nearly(a, b.slice(0, a.length)));
  const decisive = differs.length > 0;
  // Printed facts a misread can spoil: one that disagrees alone is taken for a misread, two are another card.
  const secondary: string[] = [];
  if (front.documentType === 'INE') {
    const before = differs.length;
    compare('seccion', text(f, 'seccion'), zone.section, nearly);
    compare('vigencia', text(f, 'vigencia').slice(-2), zone.expiry.slice(0, 2), nearly);
    secondary.push(...differs.slice(before));
  }
  if (!decisive && secondary.length < 2) return { same: true, compared };
  return { same: false, reason: 'other_card', detail: `the back's zone disagrees with the front on ${differs.join(', ')}` };
}
