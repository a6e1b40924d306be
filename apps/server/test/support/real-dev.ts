/**
 * The real (not generated) development set `../shared/data/real-dev` (from the repository root): its MRZ cases
 * from the ground-truth files, read in place. Those images are licensed for local testing only: never copy them.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { OcrEngine, OcrResult } from '../../src/engines/ocr/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REAL_DEV = path.resolve(here, '../../../../../shared/data/real-dev');
export const realDevPresent = (): boolean => existsSync(path.join(REAL_DEV, 'mrz', 'ground_truth.json'));

interface GroundTruthFile {
  files: Record<string, Record<string, unknown>>;
}

/** One image of the set with what must be read from it. */
export interface RealCase {
  /** Path relative to real-dev. */
  file: string;
  side: 'front' | 'back';
  passportHint: boolean;
  /** Expected MRZ lines (null: the image has no MRZ). */
  mrz: string[] | null;
  /** Whether the MRZ's check digits, as printed, validate. */
  printedValid: boolean;
  /**
   * Printed facts in the engine's wire form (names, dates DD/MM/YYYY, ICAO sex), when the engine reads them. Where
   * the page's print and its MRZ disagree, the MRZ's value (what the engine must return, see docs/decisions.md).
   */
  printed: Record<string, string>;
  /** Wire fields whose print disagrees with the MRZ (the engine must record `mrz_front_mismatch:<field>`). */
  disagreements: string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** '07 JUN 1979' or '12.08.1964' → '07/06/1979'. */
function wireDate(text: unknown): string {
  if (typeof text !== 'string') return '';
  const named = /^(\d{2}) ([A-Z]{3}) (\d{4})$/.exec(text);
  if (named) return `${named[1]}/${String(MONTHS.indexOf(named[2]!) + 1).padStart(2, '0')}/${named[3]}`;
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  return dotted ? `${dotted[1]}/${dotted[2]}/${dotted[3]}` : '';
}

/** A TD3 zone's facts in the engine's wire form (2026 as today for two-digit birth years). */
function td3WireFacts(lines: string[]): Record<string, string> {
  const [l1, l2] = lines as [string, string];
  const words = (s: string) => s.split('<').filter(Boolean).join(' ');
  const [surnames = '', given = ''] = l1.slice(5).replace(/<+$/, '').split('<<');
  const date = (yymmdd: string, century: number) => `${yymmdd.slice(4, 6)}/${yymmdd.slice(2, 4)}/${century + Number(yymmdd.slice(0, 2))}`;
  const birthYy = Number(l2.slice(13, 15));
  return {
    apellidos: words(surnames),
    nombres: words(given),
    fechaNacimiento: date(l2.slice(13, 19), birthYy > 26 ? 1900 : 2000),
    vigencia: date(l2.slice(21, 27), 2000),
    sexo: l2[20]!,
    numeroPasaporte: l2.slice(0, 9).replace(/<+$/, ''),
  };
}

const allTrue = (value: unknown): boolean => typeof value === 'object' && value !== null && Object.values(value).every((v) => v === true);

async function groundTruth(folder: string): Promise<GroundTruthFile> {
  return JSON.parse(await readFile(path.join(REAL_DEV, folder, 'ground_truth.json'), 'utf8')) as GroundTruthFile;
}

/** Every MRZ case of the development set, from its ground-truth files. */
export async function realCases(): Promise<RealCase[]> {
  const cases: RealCase[] = [];
  const mrz = await groundTruth('mrz');
  for (const [file, entry] of Object.entries(mrz.files)) {
    const fields = (entry.fields ?? {}) as Record<string, string>;
    const lines = (entry.mrz_td3 ?? null) as string[] | null;
    const sourceFields = entry.same_as ? ((mrz.files[entry.same_as as string]?.fields ?? {}) as Record<string, string>) : fields;
    const printed: Record<string, string> = {};
    const disagreements: string[] = [];
    if (lines && sourceFields.surname) {
      const fromMrz = td3WireFacts(lines);
      const viz: Record<string, string> = {
        apellidos: sourceFields.surname,
        nombres: sourceFields.given_names ?? '',
        fechaNacimiento: wireDate(sourceFields.date_of_birth),
        vigencia: wireDate(sourceFields.date_of_expiry),
        sexo: sourceFields.sex ?? '',
        numeroPasaporte: sourceFields.passport_no ?? sourceFields.document_no ?? '',
      };
      for (const [key, value] of Object.entries(viz)) {
        printed[key] = value === fromMrz[key] ? value : fromMrz[key]!;
        if (value !== fromMrz[key]) disagreements.push(key);
      }
    }
    cases.push({
      file: `mrz/${file}`,
      side: 'front',
      passportHint: lines !== null,
      mrz: lines,
      printedValid: lines ? entry.mrz_check_digits === undefined || allTrue(entry.mrz_check_digits) : false,
      printed,
      disagreements,
    });
  }
  const dni = await groundTruth('ids/es_dni');
  for (const [file, entry] of Object.entries(dni.files)) {
    const back = entry.back as { mrz_td1: string[]; mrz_check_digits: Record<string, boolean> };
    cases.push({
      file: `ids/es_dni/${file}`,
      side: 'back',
      passportHint: false,
      mrz: back.mrz_td1,
      printedValid: allTrue(back.mrz_check_digits),
      printed: {},
      disagreements: [],
    });
  }
  const cni = await groundTruth('ids/fr_cni');
  for (const file of Object.keys(cni.files)) {
    // A front without an MRZ, read as the front it is.
    cases.push({
      file: `ids/fr_cni/${file}`,
      side: 'front',
      passportHint: false,
      mrz: null,
      printedValid: false,
      printed: {},
      disagreements: [],
    });
  }
  return cases;
}

/**
 * Two of the set's files are Windows bitmaps named .jpg (a format the upload route refuses); they are handed to
 * the engine as the PNG a user would upload. Uncompressed 8-bit (palette) and 24-bit bitmaps only.
 */
export async function uploadable(file: Buffer): Promise<Buffer> {
  if (file.subarray(0, 2).toString('latin1') !== 'BM') return file;
  const offset = file.readUInt32LE(10);
  const width = file.readInt32LE(18);
  const rawHeight = file.readInt32LE(22);
  const bits = file.readUInt16LE(28);
  if (file.readUInt32LE(30) !== 0 || (bits !== 8 && bits !== 24)) throw new Error('unsupported bitmap');
  const height = Math.abs(rawHeight);
  const stride = Math.ceil((width * bits) / 32) * 4;
  const palette = 14 + file.readUInt32LE(14);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = offset + (rawHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const at = bits === 24 ? row + x * 3 : palette + file[row + x]! * 4;
      const out = (y * width + x) * 3;
      rgb[out] = file[at + 2]!;
      rgb[out + 1] = file[at + 1]!;
      rgb[out + 2] = file[at]!;
    }
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export async function readCase(engine: OcrEngine, c: RealCase): Promise<{ result: OcrResult; ms: number; cpuMs: number }> {
  const image = await uploadable(await readFile(path.join(REAL_DEV, c.file)));
  const started = performance.now();
  // CPU of the whole process (tesseract's worker threads included): a figure that load on the machine inflates less.
  const cpu = process.cpuUsage();
  const result = await engine.read({ image, side: c.side, passportHint: c.passportHint });
  const used = process.cpuUsage(cpu);
  return { result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * The real bills of `proofs/` with what the proof reader must return, in its own field names, from
 * `proofs/ground_truth.json` (transcribed by eye). An empty string: nothing may be read there (whited out upstream,
 * or masked): any value is invented. Fields not listed must come back empty too. On the CFE image (two bills side by
 * side) the left bill counts; the CFE prints no issue date, so issueDate is the end of the billed period (the rule).
 */
export interface RealProofCase {
  file: string;
  expected: Record<string, string>;
}

export const realProofsPresent = (): boolean => existsSync(path.join(REAL_DEV, 'proofs', 'ground_truth.json'));

export function realProofCases(): RealProofCase[] {
  return [
    {
      file: 'proofs/cfe_aviso_recibo_redacted_x2.png',
      expected: {
        holderName: '',
        street: '',
        exteriorNumber: '',
        settlement: '',
        postalCode: '',
        serviceNumber: '',
        municipality: 'HERMOSILLO',
        state: 'SON.',
        amountDue: '$909.00',
        dueDate: '2017-12-02',
        periodFrom: '2017-09-15',
        periodTo: '2017-11-13',
        issueDate: '2017-11-13',
      },
    },
    {
      file: 'proofs/us_ppl_electric_sample_bill.jpg',
      expected: {
        holderName: 'CUSTOMER',
        street: 'MAIN ST',
        exteriorNumber: '123',
        postalCode: '18062',
        municipality: 'ANYTOWN',
        state: 'PA',
        amountDue: '$191.69',
        dueDate: '2011-07-27',
      },
    },
    {
      file: 'proofs/fr_edf_fictiocorp_bill_p1.jpg',
      expected: {
        holderName: 'JOHN DOE',
        street: 'RUE DE L’IMAGINAIRE',
        exteriorNumber: '123',
        postalCode: '75001',
        municipality: 'PARIS',
        issueDate: '2021-01-29',
        amountDue: '1479,85 €',
      },
    },
  ];
}

/**
 * Right: expected non-empty values read exactly (case aside, accents as printed; a typographic apostrophe and a
 * straight one are the same character to OCR); invented: any other value returned.
 */
export function scoreProof(expected: Record<string, string>, got: Record<string, string | undefined>): { right: number; total: number; invented: string[] } {
  const norm = (v: string | undefined) => (v ?? '').trim().toUpperCase().replace(/[’‘]/g, "'");
  let right = 0;
  let total = 0;
  const invented: string[] = [];
  for (const [key, value] of Object.entries(expected)) {
    if (value === '') continue;
    total++;
    if (norm(got[key]) === norm(value)) right++;
  }
  for (const [key, value] of Object.entries(got)) {
    if (norm(value) !== '' && norm(value) !== norm(expected[key])) invented.push(`${key}=${JSON.stringify(value)}`);
  }
  return { right, total, invented };
}
