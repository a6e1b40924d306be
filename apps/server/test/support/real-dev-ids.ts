/**
 * The generic label-anchored reader on the real ID photos of the development set (../shared/data/real-dev, never
 * copied into the repository): Spanish DNI 3.0/4.0 and French CNI specimens, documents the flow does not read,
 * used to measure label finding and card finding on real camera photos. Shared by a test and the OCR bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { editDistance, findLabels, labelForm, readByLabels, type ValueSpec } from '../../src/engines/ocr/fields/labels.js';
import { encodeGreyPng, straighten } from '../../src/engines/ocr/geometry.js';
import type { OcrPool, RawRead } from '../../src/engines/ocr/pool.js';

export const REAL_DEV = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data/real-dev');

export const realDevPresent = (): boolean => existsSync(path.join(REAL_DEV, 'ids'));

const DATE = /^\d{2}\s?\d{2}\s?\d{4}$/;

const ES_FRONT: ValueSpec[] = [
  { key: 'apellidos', texts: ['APELLIDOS'], maxLines: 2 },
  { key: 'nombre', texts: ['NOMBRE'] },
  { key: 'sexo', texts: ['SEXO'], shape: /^[MF]$/ },
  { key: 'nacionalidad', texts: ['NACIONALIDAD'], shape: /^[A-Z]{3}$/ },
  { key: 'fecha_nacimiento', texts: ['FECHA DE NACIMIENTO'], shape: DATE },
  { key: 'num_soporte', texts: ['NUM SOPORT'], shape: /^[A-Z]{3}\d{6}/ },
  { key: 'validez', texts: ['VALIDEZ'], shape: DATE },
  { key: 'dni', texts: ['DNI'], shape: /^\d{8}[A-Z]$/ },
];

const ES_BACK: ValueSpec[] = [
  { key: 'domicilio', texts: ['DOMICILIO'], maxLines: 5 },
  { key: 'lugar_nacimiento', texts: ['LUGAR DE NACIMIENTO'], maxLines: 3 },
  { key: 'hijo_de', texts: ['HIJO DE', 'HIJO/A DE'] },
];

const FR_FRONT: ValueSpec[] = [
  { key: 'nom', texts: ['NOM / Surname', 'NOM'] },
  { key: 'prenoms', texts: ['Prénoms / Given names'] },
  { key: 'sexe', texts: ['SEXE / Sex'], shape: /^[MF]$/ },
  { key: 'nationalite', texts: ['NATIONALITÉ / Nationality'], shape: /^[A-Z]{3}$/ },
  { key: 'date_naissance', texts: ['DATE DE NAISS. / Date of birth'], shape: DATE },
  { key: 'lieu_naissance', texts: ['LIEU DE NAISSANCE / Place of birth'] },
  { key: 'numero_document', texts: ['N° DU DOCUMENT / Document No.'], shape: /^[A-Z0-9]{9}$/ },
  { key: 'date_expiration', texts: ["DATE D'EXPIR. / Expiry date"], shape: DATE },
];

export interface RealIdCase {
  file: string;
  specs: ValueSpec[];
  truth: Record<string, string>;
}

/** Every printed field with a label, from the folders' ground_truth.json. */
export function realIdCases(): RealIdCase[] {
  const es = JSON.parse(readFileSync(path.join(REAL_DEV, 'ids/es_dni/ground_truth.json'), 'utf8')) as {
    files: Record<string, { front: Record<string, string>; back: Record<string, unknown> }>;
  };
  const fr = JSON.parse(readFileSync(path.join(REAL_DEV, 'ids/fr_cni/ground_truth.json'), 'utf8')) as {
    files: Record<string, { fields: Record<string, string> }>;
  };
  const cases: RealIdCase[] = [];
  for (const [file, doc] of Object.entries(es.files)) {
    const back = doc.back as Record<string, string | string[]>;
    const lines = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(' ') : (v ?? ''));
    cases.push({
      file: `ids/es_dni/${file}`,
      specs: [...ES_FRONT, ...ES_BACK],
      truth: {
        ...Object.fromEntries(ES_FRONT.map((s) => [s.key, doc.front[s.key] ?? ''])),
        domicilio: lines(back.domicilio),
        lugar_nacimiento: lines(back.lugar_nacimiento),
        hijo_de: lines(back.hijo_de),
      },
    });
  }
  for (const [file, doc] of Object.entries(fr.files)) {
    cases.push({ file: `ids/fr_cni/${file}`, specs: FR_FRONT, truth: Object.fromEntries(FR_FRONT.map((s) => [s.key, doc.fields[s.key] ?? ''])) });
  }
  return cases;
}

/** Words of the labels themselves (and their other language), never values. */
function labelWordTest(specs: ValueSpec[]): (text: string) => boolean {
  const words = new Set(
    specs
      .flatMap((s) => s.texts.flatMap((t) => t.split(/[\s/]+/)))
      .map(labelForm)
      .filter((w) => w.length >= 3),
  );
  return (text) => {
    const form = labelForm(text);
    return form.length >= 3 && [...words].some((w) => (w.length <= 4 ? w === form : editDistance(w, form, 1) <= 1));
  };
}

const same = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toUpperCase() === b.replace(/\s+/g, ' ').trim().toUpperCase();

export interface RealIdScore {
  file: string;
  variant: 'card found' | 'whole photo';
  hits: number;
  total: number;
  /** Fields whose label was found but whose value differs (invented or misread), as `key: got`. */
  wrong: string[];
  ms: number;
}

async function pageOf(pool: OcrPool, png: Buffer, scale: number): Promise<RawRead> {
  const read = await pool.readText(png, { segmentation: 'auto' });
  const s = (b: { x0: number; y0: number; x1: number; y1: number }) => ({ x0: b.x0 / scale, y0: b.y0 / scale, x1: b.x1 / scale, y1: b.y1 / scale });
  return { text: read.text, lines: read.lines.map((l) => ({ ...l, box: s(l.box), words: l.words.map((w) => ({ ...w, box: s(w.box) })) })) };
}

/**
 * One photo read twice by labels: after card finding and straightening (as the engine does, 2000 px), and
 * whole (greyscale, up to 2000 px wide).
 */
export async function scoreRealId(pool: OcrPool, c: RealIdCase): Promise<RealIdScore[]> {
  const image = readFileSync(path.join(REAL_DEV, c.file));
  const isLabel = labelWordTest(c.specs);
  const score = (variant: RealIdScore['variant'], values: Record<string, string>, ms: number): RealIdScore => {
    const keys = Object.keys(c.truth).filter((k) => c.truth[k]);
    const wrong = keys.filter((k) => values[k] !== undefined && !same(values[k]!, c.truth[k]!)).map((k) => `${k}: ${values[k]}`);
    return { file: c.file, variant, hits: keys.filter((k) => values[k] !== undefined && same(values[k]!, c.truth[k]!)).length, total: keys.length, wrong, ms };
  };
  let started = performance.now();
  // The four orientations of the card found, read small; the one whose labels read best is read in full.
  let best = { turns: 0, labels: -1 };
  for (const turns of [0, 1, 2, 3]) {
    const turned = await straighten(image, { cardWidth: 2000, quarterTurns: turns });
    const labels = findLabels(await pageOf(pool, await encodeGreyPng(turned.grey, undefined, 0.5), 0.5), c.specs).size;
    if (labels > best.labels) best = { turns, labels };
  }
  const card = await straighten(image, { cardWidth: 2000, quarterTurns: best.turns });
  const cardPage = await pageOf(pool, await encodeGreyPng(card.grey), 1);
  const found = score('card found', readByLabels(cardPage, c.specs, isLabel), performance.now() - started);
  started = performance.now();
  const whole = await sharp(image).rotate().greyscale().resize({ width: 2000, withoutEnlargement: false }).png().toBuffer();
  const wholePage = await pageOf(pool, whole, 1);
  return [found, score('whole photo', readByLabels(wholePage, c.specs, isLabel), performance.now() - started)];
}
