// OCR accuracy and latency on generated documents (clean and degraded), read by the server's OCR engine.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateFixtureSet, type DegradationKind, type GroundTruth } from '@kyc/fixtures';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { OcrEngine, OcrResult } from '../../apps/server/src/engines/ocr/types.js';
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
  const miss = (key: string, got: unknown, want: unknown) =>
    figures.mismatches.push(`${truth.id} ${key}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
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

const rate = (t: Tally | undefined): string =>
  t && t.total > 0 ? `${((100 * t.hits) / t.total).toFixed(1)}% (${t.hits}/${t.total})` : '—';

export function formatTable(sets: Array<[string, SetFigures]>): string[] {
  const keys = [
    ...FRONT_FIELDS, 'all front fields', 'MRZ line 1', 'MRZ line 2', 'MRZ line 3', 'MRZ check digits valid', 'documentType',
  ];
  const lines = [
    `| field | ${sets.map(([name]) => name).join(' | ')} |`,
    `|---|${sets.map(() => '---').join('|')}|`,
    ...keys.map((key) => `| ${key} | ${sets.map(([, f]) => rate(f.fields.get(key))).join(' | ')} |`),
    '',
    '| latency per side | ' + sets.map(([name]) => `${name} p50 / p95 ms`).join(' | ') + ' |',
    `|---|${sets.map(() => '---').join('|')}|`,
  ];
  for (const side of ['front', 'back'] as const) {
    lines.push(`| ${side} | ${sets.map(([, f]) =>
      `${percentile(f.latency[side], 0.5).toFixed(0)} / ${percentile(f.latency[side], 0.95).toFixed(0)} (n=${f.latency[side].length})`).join(' | ')} |`);
  }
  return lines;
}

async function generate(dir: string, degradations: DegradationKind[]): Promise<string[]> {
  const manifest = await generateFixtureSet({
    outDir: dir, seed: SEED, count: COUNT, degradations, referenceDate: REFERENCE_DATE,
  });
  return manifest.items.filter((i) => degradations.length === 0 || i.degradation !== 'clean').map((i) => i.id);
}

export async function ocrAccuracy(): Promise<SuiteResult> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'ocr-bench-'));
  const engine = await createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`) });
  try {
    const cleanDir = path.join(root, 'clean');
    const degradedDir = path.join(root, 'degraded');
    const clean = await evaluateSet(engine, cleanDir, await generate(cleanDir, []));
    const degraded = await evaluateSet(engine, degradedDir, await generate(degradedDir, DEGRADED));
    return {
      title: `OCR exact-match rates and latency — seed ${SEED}, ${COUNT} documents per kind; degraded = ${DEGRADED.join(', ')}`,
      lines: formatTable([['clean', clean], ['degraded', degraded]]),
    };
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}
