// Real OCR on INE fronts drawn after the real models (G/H, desde el extranjero, E/F): clean, overflowing the frame,
// turned a quarter, on a busy desk. And the generic label reader on the real ID photos of ../shared/data/real-dev.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, lowres, stripAccentsKeepEnye, type GroundTruth } from '@kyc/fixtures';
import { generateFixtureSet } from '@kyc/fixtures';
import { createOcrEngine } from '../../../src/engines/ocr/engine.js';
import { OcrPool } from '../../../src/engines/ocr/pool.js';
import type { OcrEngine } from '../../../src/engines/ocr/types.js';
import { realDevPresent, realIdCases, REAL_DEV, scoreRealId } from '../../support/real-dev-ids.js';

const REFERENCE_DATE = '2026-11-26';
let dir: string;
let engine: OcrEngine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ocr-models-'));
  [, engine] = await Promise.all([
    generateFixtureSet({
      outDir: dir,
      seed: 11,
      count: 2,
      kinds: ['ine'],
      degradations: ['overflow', 'quarter-turn', 'busy'],
      referenceDate: REFERENCE_DATE,
      ineModel: 'real',
    }),
    createOcrEngine({ now: () => new Date(`${REFERENCE_DATE}T12:00:00Z`) }),
  ]);
}, 120_000);

afterAll(async () => {
  await engine?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function read(id: string) {
  const truth = JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as GroundTruth;
  const result = await engine.read({ image: await readFile(path.join(dir, `${id}.png`)), side: 'front' });
  return { truth, result };
}

describe('INE fronts of the real models, read by their labels', () => {
  // 000 is drawn as model G/H, 001 as the credential issued abroad.
  it.each(['ine-000-front-clean', 'ine-001-front-clean', 'ine-000-front-overflow', 'ine-001-front-overflow'])(
    '%s: the name and the codes exactly, the model recognised',
    async (id) => {
      const { truth, result } = await read(id);
      expect(result.documentType).toBe('INE');
      expect(result.extra?.modeloIne).toBe(truth.extra.modeloIne);
      for (const key of ['apellidoPaterno', 'nombres', 'curp', 'claveElector', 'fechaNacimiento', 'vigencia', 'seccion']) {
        expect(result.ocrData[key], key).toBe(truth.ocrFront[key]);
      }
      expect(result.confidence?.curp).toBeGreaterThan(0.5);
    },
    60_000,
  );

  it.each(['ine-000-front-quarter-turn', 'ine-001-front-quarter-turn', 'ine-000-front-busy'])(
    "%s: turned or on a busy desk, still the holder's name and no label word in it",
    async (id) => {
      const { truth, result } = await read(id);
      expect(result.documentType).toBe('INE');
      expect(result.ocrData.nombreCompleto).toBe(truth.ocrFront.nombreCompleto);
      expect(String(result.ocrData.nombreCompleto)).not.toMatch(/\b(NOMBRE|NAME|DOMICILIO|ADDRESS|EXTRANJERO)\b/);
    },
    60_000,
  );
});

describe('INE fronts of models E/F, drawn after the IFE specimen (values packed close, EMISIÓN a year)', () => {
  let efDir: string;
  beforeAll(async () => {
    efDir = await mkdtemp(path.join(os.tmpdir(), 'ocr-models-ef-'));
    await generateFixtureSet({ outDir: efDir, seed: 11, count: 2, kinds: ['ine'], degradations: [], referenceDate: REFERENCE_DATE, ineModel: 'e-f' });
  }, 120_000);
  afterAll(async () => {
    if (efDir) await rm(efDir, { recursive: true, force: true });
  });

  it.each(['ine-000-front-clean', 'ine-001-front-clean'])(
    '%s: the model, the codes and the years exactly',
    async (id) => {
      const truth = JSON.parse(await readFile(path.join(efDir, `${id}.json`), 'utf8')) as GroundTruth;
      const result = await engine.read({ image: await readFile(path.join(efDir, `${id}.png`)), side: 'front' });
      expect(result.extra?.modeloIne).toBe('E/F');
      for (const key of ['curp', 'claveElector', 'fechaNacimiento', 'anioRegistro', 'numeroRegistro', 'seccion', 'emision', 'vigencia', 'apellidoPaterno']) {
        expect(result.ocrData[key], key).toBe(truth.ocrFront[key]);
      }
      expect(truth.ocrFront.emision).toMatch(/^20\d{2}$/);
    },
    60_000,
  );
});

/**
 * The browser journeys show a card on the fake camera at 576 px high and upload the guide's crop: a 913 px wide
 * card. Seeds 21 and 22 are the journeys' holders (IÑIGUEZ, HERNÁNDEZ); their older card once lost the first
 * surname ('INEC HERN LOPEZ') and the Ñ. Seed 5 drawn as G/H has long bottom rows the MRZ locator took for a zone.
 */
describe("the journeys' camera frames", () => {
  it.each([
    ['sintetico', 21],
    ['sintetico', 22],
    ['g-h', 21],
    ['g-h', 5],
  ] as const)(
    '%s card of seed %s: the whole name, the Ñ kept, and the CURP',
    async (model, seed) => {
      const doc = await buildDocument('ine', 0, {
        seed,
        referenceDate: { y: 2026, m: 11, d: 26 },
        ...(model === 'g-h' ? { ineModel: model } : {}),
      });
      const frame = await lowres(doc.sides[0]!.png, 913);
      const result = await engine.read({ image: frame.png, side: 'front' });
      expect(result.documentType).toBe('INE');
      expect(stripAccentsKeepEnye(String(result.ocrData.nombreCompleto))).toBe(stripAccentsKeepEnye(String(doc.truth.ocrFront.nombreCompleto)));
      expect(result.ocrData.curp).toBe(doc.truth.ocrFront.curp);
      expect(stripAccentsKeepEnye(String(result.ocrData.calle))).toBe(stripAccentsKeepEnye(String(doc.truth.ocrFront.calle)));
    },
    60_000,
  );
});

describe.runIf(realDevPresent())('the label reader on real ID photos (../shared/data/real-dev)', () => {
  let pool: OcrPool;
  beforeAll(async () => {
    pool = await OcrPool.create({ textWorkers: 1 });
  }, 60_000);
  afterAll(async () => pool?.close());

  it('finds the labels of a real camera photo and reads most values next to them', async () => {
    const cases = realIdCases();
    const fr = cases.find((c) => c.file.includes('fr_cni'))!;
    const [cardFound] = await scoreRealId(pool, fr);
    expect(cardFound!.hits).toBeGreaterThanOrEqual(5);
    const es = cases.find((c) => c.file.includes('dni3'))!;
    const scores = await scoreRealId(pool, es);
    expect(Math.max(...scores.map((s) => s.hits))).toBeGreaterThanOrEqual(5);
  }, 240_000);
});

if (!realDevPresent()) {
  console.warn(`real-dev images not found at ${REAL_DEV}: the real-photo label test is skipped`);
}
