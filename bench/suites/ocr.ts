// OCR accuracy and latency on generated documents (clean and degraded), read by the server's OCR engine.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, INE_MODELS, type DegradationKind, type GroundTruth } from '@kyc/fixtures';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { OcrEngine, OcrResult } from '../../apps/server/src/engines/ocr/types.js';
import { OcrPool } from '../../apps/server/src/engines/ocr/pool.js';
import { realDevPresent, realIdCases, REAL_DEV, scoreRealId } from '../../apps/server/test/support/real-dev-ids.js';
import type { SuiteResult } from '../run.js';

const SEED = 11;
const COUNT = 10;
const REFERENCE_DATE = '2026-11-26';
const DEGRADED: DegradationKind[] = ['combo', 'phone', 'glare', 'lowres'];
const FRONT_FIELDS = ['nombreCompleto', 'curp', 'claveElector', 'fechaNacimiento', 'vigencia'] as const;

interface Tally {
  hits: number;
  total: number;
}

export interface SetFigures {
  fields: Map<string, Tally>;
  latency: { front: number[]; back: number[] };
  mismatches: string[];
}

function count(figures: SetFigures, key: string, hit: boolean): void {
  const tally = figures.fields.get(key) ?? { hits: 0, total: 0 };
  tally.total++;
  if (hit) tally.hits++;
  figures.fields.set(key, tally);
}

function score(figures: SetFigures, truth: GroundTruth, result: OcrResult): void {
  const miss = (key: string, got: unknown, want: unknown) => figures.mismatches.push(`${truth.id} ${key}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
  const typeOk = result.documentType === truth.documentType;
  count(figures, 'documentType', typeOk);
  if (!typeOk) miss('documentType', result.documentType, truth.documentType);
  if (truth.visible.includes('ocrFront')) {
    for (const field of FRONT_FIELDS) {
      const want = truth.ocrFront[field];
      if (want === undefined) continue;
      const got = result.ocrData[field];
      count(figures, field, got === want);
      if (got !== want) miss(field, got, want);
    }
    let allOk = true;
    for (const [field, want] of Object.entries(truth.ocrFront)) {
      if (result.ocrData[field] !== want) {
        allOk = false;
        if (!(FRONT_FIELDS as readonly string[]).includes(field)) miss(field, result.ocrData[field], want);
      }
    }
    count(figures, 'all front fields', allOk);
  }
  if (truth.visible.includes('ocrBack') && truth.mrzLines) {
    truth.mrzLines.forEach((want, i) => {
      const got = result.mrz?.lines[i];
      count(figures, `MRZ line ${i + 1}`, got === want);
      if (got !== want) miss(`MRZ line ${i + 1}`, got, want);
    });
    count(figures, 'MRZ check digits valid', result.mrz?.valid === true);
  }
}

/** Read every image of a generated set and tally exact matches against its ground truth. */
export async function evaluateSet(engine: OcrEngine, dir: string, ids: string[]): Promise<SetFigures> {
  const figures: SetFigures = { fields: new Map(), latency: { front: [], back: [] }, mismatches: [] };
  for (const id of ids) {
    const truth = JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as GroundTruth;
    const image = await readFile(path.join(dir, `${id}.png`));
    const started = performance.now();
    const result = await engine.read({ image, side: truth.side, passportHint: truth.documentType === 'PASAPORTE' });
    figures.latency[truth.side].push(performance.now() - started);
    score(figures, truth, result);
  }
  return figures;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

const rate = (t: Tally | undefined): string => (t && t.total > 0 ? `${((100 * t.hits) / t.total).toFixed(1)}% (${t.hits}/${t.total})` : '—');

export function formatTable(sets: Array<[string, SetFigures]>): string[] {
  const keys = [...FRONT_FIELDS, 'all front fields', 'MRZ line 1', 'MRZ line 2', 'MRZ line 3', 'MRZ check digits valid', 'documentType'];
  const lines = [
    `| field | ${sets.map(([name]) => name).join(' | ')} |`,
    `|---|${sets.map(() => '---').join('|')}|`,
    ...keys.map((key) => `| ${key} | ${sets.map(([, f]) => rate(f.fields.get(key))).join(' | ')} |`),
    '',
    '| latency per side | ' + sets.map(([name]) => `${name} p50 / p95 ms`).join(' | ') + ' |',
    `|---|${sets.map(() => '---').join('|')}|`,
  ];
  for (const side of ['front', 'back'] as const) {
    lines.push(`| ${side} | ${sets.map(([, f]) => `${percentile(f.latency[side], 0.5).toFixed(0)} / ${percentile(f.latency[side], 0.95).toFixed(0)} (n=${f.latency[side].length})`).join(' | ')} |`);
  }
  return lines;
}

async function generate(dir: string, degradations: DegradationKind[]): Promise<string[]> {
  const manifest = await generateFixtureSet({
    outDir: dir,
    seed: SEED,
    count: COUNT,
    degradations,
    referenceDate: REFERENCE_DATE,
  });
  return manifest.items.filter((i) => degradations.length === 0 || i.degradation !== 'clean').map((i) => i.id);
}

/** Every ocrFront field of an INE front (flags left out): how many of a model's printed fields were read exactly. */
const INE_FIELDS = [
  'nombreCompleto',
  'apellidoPaterno',
  'apellidoMaterno',
  'nombres',
  'fechaNacimiento',
  'sexo',
  'curp',
  'claveElector',
  'anioRegistro',
  'numeroRegistro',
  'seccion',
  'emision',
  'vigencia',
  'calle',
  'numero',
  'colonia',
  'cp',
  'municipio',
  'estado',
] as const;

const INE_MODEL_DEGRADATIONS: DegradationKind[] = ['phone', 'overflow', 'quarter-turn', 'busy'];

export interface IneModelFigures {
  /** Fields read exactly / fields printed (a field the model does not print counts when left empty). */
  exact: number;
  total: number;
  /** Fields returned with a value that is not the printed one (invented or misread). */
  wrong: number;
  /** Fronts whose name and CURP were both exact. */
  nameAndCurp: number;
  fronts: number;
  latency: number[];
  /** CPU time of the process per read (tesseract's worker threads included), ms. */
  cpu: number[];
}

/**
 * INE fronts per drawn model (the generator's own design, model G/H, the credential issued abroad, E/F), clean and
 * photographed (phone, overflowing the frame, a quarter turn, a busy desk): per-field exact rates.
 */
export async function ineModelAccuracy(engine: OcrEngine, root: string, count: number): Promise<Array<[string, IneModelFigures]>> {
  const rows: Array<[string, IneModelFigures]> = [];
  for (const model of INE_MODELS) {
    const dir = path.join(root, `ine-${model}`);
    const manifest = await generateFixtureSet({
      outDir: dir,
      seed: SEED,
      count,
      kinds: ['ine'],
      degradations: INE_MODEL_DEGRADATIONS,
      referenceDate: REFERENCE_DATE,
      ineModel: model,
    });
    for (const variant of ['clean', ...INE_MODEL_DEGRADATIONS]) {
      const figures: IneModelFigures = { exact: 0, total: 0, wrong: 0, nameAndCurp: 0, fronts: 0, latency: [], cpu: [] };
      for (const item of manifest.items.filter((i) => i.side === 'front' && i.degradation === variant)) {
        const truth = JSON.parse(await readFile(path.join(dir, item.json), 'utf8')) as GroundTruth;
        const image = await readFile(path.join(dir, item.png));
        const started = performance.now();
        const cpu = process.cpuUsage();
        const result = await engine.read({ image, side: 'front' });
        figures.latency.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        figures.cpu.push((used.user + used.system) / 1000);
        figures.fronts++;
        for (const key of INE_FIELDS) {
          const want = truth.ocrFront[key];
          const got = result.ocrData[key] ?? '';
          figures.total++;
          if (got === want) figures.exact++;
          else if (got !== '') figures.wrong++;
        }
        if (result.ocrData.nombreCompleto === truth.ocrFront.nombreCompleto && result.ocrData.curp === truth.ocrFront.curp) figures.nameAndCurp++;
      }
      rows.push([`${model} ${variant}`, figures]);
    }
  }
  return rows;
}

const allFronts = 'all fronts';

export function formatIneModels(columns: Array<[string, Array<[string, IneModelFigures]>]>): string[] {
  const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '—');
  const lines = [
    `| model, photo | ${columns.map(([name]) => `${name}: fields exact · wrong (not empty) · name+CURP · wall p50 ms · CPU p50 ms`).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
  ];
  const labels = [...(columns[0]?.[1].map(([label]) => label) ?? []), allFronts];
  const merged = (rows: Array<[string, IneModelFigures]>): IneModelFigures => ({
    exact: rows.reduce((n, [, f]) => n + f.exact, 0),
    wrong: rows.reduce((n, [, f]) => n + f.wrong, 0),
    total: rows.reduce((n, [, f]) => n + f.total, 0),
    nameAndCurp: rows.reduce((n, [, f]) => n + f.nameAndCurp, 0),
    fronts: rows.reduce((n, [, f]) => n + f.fronts, 0),
    latency: rows.flatMap(([, f]) => f.latency),
    cpu: rows.flatMap(([, f]) => f.cpu),
  });
  for (const label of labels) {
    lines.push(
      `| ${label} | ${columns
        .map(([, rows]) => {
          const f = label === allFronts ? merged(rows) : rows.find(([l]) => l === label)?.[1];
          return f
            ? `${pct(f.exact, f.total)} (${f.exact}/${f.total}) · ${pct(f.wrong, f.total)} · ${f.nameAndCurp}/${f.fronts} · ${percentile(f.latency, 0.5).toFixed(0)} · ${percentile(f.cpu, 0.5).toFixed(0)}`
            : '—';
        })
        .join(' | ')} |`,
    );
  }
  return lines;
}

/** The generic label reader on the real ID photos of the development set (skipped when absent). */
export async function realIdLabels(): Promise<string[]> {
  if (!realDevPresent()) return [`real-dev not found at ${REAL_DEV}: skipped`];
  const pool = await OcrPool.create({ textWorkers: 1 });
  try {
    const lines = ['| real photo | variant | fields exact | wrong (not empty) | ms |', '|---|---|---|---|---|'];
    for (const c of realIdCases()) {
      for (const s of await scoreRealId(pool, c)) {
        lines.push(`| ${c.file} | ${s.variant} | ${s.hits}/${s.total} | ${s.wrong.length} | ${s.ms.toFixed(0)} |`);
      }
    }
    return lines;
  } finally {
    await pool.close();
  }
}

const parts = (process.env.BENCH_OCR_PARTS ?? 'all,ine,real').split(',');

export async function ocrAccuracy(): Promise<SuiteResult> {
  if (!parts.includes('all')) {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ocr-bench-'));
    const engine = await createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`), pageHalves: process.env.BENCH_OCR_PAGE_HALVES === '1' });
    try {
      const lines: string[] = [];
      if (parts.includes('ine')) lines.push(...formatIneModels([['after', await ineModelAccuracy(engine, root, INE_MODEL_COUNT)]]), '');
      if (parts.includes('real')) lines.push(...(await realIdLabels()));
      return { title: `OCR — INE fronts per drawn model (seed ${SEED}, ${INE_MODEL_COUNT} per model) and labels on real-dev ID photos`, lines };
    } finally {
      await engine.close();
      await rm(root, { recursive: true, force: true });
    }
  }
  const result = await genericAccuracy();
  if (parts.includes('ine') || parts.includes('real')) {
    const root = await mkdtemp(path.join(os.tmpdir(), 'ocr-bench-'));
    const engine = await createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`), pageHalves: process.env.BENCH_OCR_PAGE_HALVES === '1' });
    try {
      if (parts.includes('ine')) result.lines.push('', ...formatIneModels([['after', await ineModelAccuracy(engine, root, INE_MODEL_COUNT)]]));
      if (parts.includes('real')) result.lines.push('', ...(await realIdLabels()));
    } finally {
      await engine.close();
      await rm(root, { recursive: true, force: true });
    }
  }
  return result;
}

const INE_MODEL_COUNT = Number(process.env.BENCH_INE_COUNT ?? 6);

async function genericAccuracy(): Promise<SuiteResult> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ocr-bench-'));
  const engine = await createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`), pageHalves: process.env.BENCH_OCR_PAGE_HALVES === '1' });
  try {
    const cleanDir = path.join(root, 'clean');
    const degradedDir = path.join(root, 'degraded');
    const clean = await evaluateSet(engine, cleanDir, await generate(cleanDir, []));
    const degraded = await evaluateSet(engine, degradedDir, await generate(degradedDir, DEGRADED));
    return {
      title: `OCR exact-match rates and latency — seed ${SEED}, ${COUNT} documents per kind; degraded = ${DEGRADED.join(', ')}`,
      lines: formatTable([
        ['clean', clean],
        ['degraded', degraded],
      ]),
    };
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}
