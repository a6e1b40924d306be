// MRZ reading on the real (not generated) development set `../shared/data/real-dev`, through the engine entry the
// `/v2/ocr` route uses. Those images are licensed for local testing only: they are read in place, never copied.
import os from 'node:os';
import sharp from 'sharp';
import { buildMrv, buildTd1, buildTd2, buildTd3, renderMrzDocumentPng, type MrzDocumentFormat } from '@kyc/fixtures';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { OcrEngine, OcrResult } from '../../apps/server/src/engines/ocr/types.js';
import { readCase, REAL_DEV, realCases, realDevPresent, type RealCase } from '../../apps/server/test/support/real-dev.js';
import type { SuiteResult } from '../run.js';
import { realProofLines } from './real-proofs.js';

export interface CaseOutcome {
  file: string;
  ms: number;
  cpuMs?: number;
  linesExact: boolean;
  /** The reported validity equals the printed one (invalid reported as invalid). */
  validityRight: boolean;
  /** Fields of the MRZ (number, dates, sex, names) right. */
  mrzFieldsRight: number;
  mrzFieldsTotal: number;
  printedRight: number;
  printedTotal: number;
  notes: string[];
}

const sexToIcao = (s: unknown): string => (s === 'H' ? 'M' : s === 'M' ? 'F' : '');

/** Scores one read against its case. */
export function scoreCase(c: RealCase, result: OcrResult, ms: number): CaseOutcome {
  const notes: string[] = [];
  const out: CaseOutcome = {
    file: c.file,
    ms,
    linesExact: false,
    validityRight: false,
    mrzFieldsRight: 0,
    mrzFieldsTotal: 0,
    printedRight: 0,
    printedTotal: 0,
    notes,
  };
  if (!c.mrz) {
    out.linesExact = !result.mrz;
    out.validityRight = !result.mrz;
    if (result.mrz) notes.push(`an MRZ was reported on an image without one: ${result.mrz.lines.join(' / ')}`);
    return out;
  }
  const got = result.mrz?.lines ?? [];
  out.linesExact = got.length === c.mrz.length && got.every((l, i) => l === c.mrz![i]);
  if (!out.linesExact) notes.push(`lines: got ${got.join(' / ') || 'none'}`);
  out.validityRight = result.mrz !== undefined && result.mrz.valid === c.printedValid;
  if (!out.validityRight) notes.push(`valid: got ${String(result.mrz?.valid)} want ${String(c.printedValid)}`);
  const want = expectedMrzFields(c.mrz);
  for (const [key, value] of Object.entries(want)) {
    out.mrzFieldsTotal++;
    const read = result.mrz?.fields?.[key]?.value;
    if (read === value) out.mrzFieldsRight++;
    else notes.push(`mrz ${key}: got ${JSON.stringify(read)} want ${JSON.stringify(value)}`);
  }
  for (const [key, value] of Object.entries(c.printed)) {
    out.printedTotal++;
    const read = printedValue(result, key);
    if (read === value) out.printedRight++;
    else notes.push(`printed ${key}: got ${JSON.stringify(read)} want ${JSON.stringify(value)}`);
  }
  for (const key of c.disagreements) {
    const recorded = result.warnings.includes(`mrz_front_mismatch:${key === 'apellidos' || key === 'nombres' ? 'nombreCompleto' : key}`);
    notes.push(`print and MRZ disagree on ${key}, the MRZ's value expected (mismatch warning ${recorded ? 'recorded' : 'absent: the print was not read'})`);
  }
  return out;
}

function printedValue(result: OcrResult, key: string): string {
  const data = result.ocrData;
  const text = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : '');
  switch (key) {
    case 'apellidos':
      return [text('apellidoPaterno'), text('apellidoMaterno')].filter(Boolean).join(' ');
    case 'sexo':
      return text('sexo');
    case 'numeroPasaporte':
      return result.extra?.numeroPasaporte ?? '';
    default:
      return text(key);
  }
}

/** The fields the MRZ's own lines hold, by the ICAO layout (independent of the engine's parser). */
function expectedMrzFields(lines: string[]): Record<string, string> {
  const clean = (s: string) => s.replace(/<+$/, '').replace(/</g, ' ').trim();
  const names = (field: string) => {
    const [surnames = '', given = ''] = field.split('<<');
    return { surnames: clean(surnames), givenNames: clean(given.replace(/<+/g, '<')) };
  };
  if (lines.length === 2) {
    const [l1, l2] = lines as [string, string];
    return {
      documentCode: clean(l1.slice(0, 2)),
      issuingState: clean(l1.slice(2, 5)),
      ...names(l1.slice(5)),
      documentNumber: clean(l2.slice(0, 9)),
      nationality: clean(l2.slice(10, 13)),
      birthDate: l2.slice(13, 19),
      sex: l2[20]!,
      expiryDate: l2.slice(21, 27),
    };
  }
  const [l1, l2, l3] = lines as [string, string, string];
  return {
    documentCode: clean(l1.slice(0, 2)),
    issuingState: clean(l1.slice(2, 5)),
    documentNumber: clean(l1.slice(5, 14)),
    birthDate: l2.slice(0, 6),
    sex: l2[7]!,
    expiryDate: l2.slice(8, 14),
    nationality: clean(l2.slice(15, 18)),
    ...names(l3),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Generated Utopia documents of every format, turned by each quarter turn: the same engine entry, as a baseline. */
async function generatedFormats(engine: OcrEngine): Promise<string[]> {
  const person = {
    issuer: 'UTO',
    surnames: ['ERIKSSON'],
    givenNames: 'ANNA MARIA',
    nationality: 'UTO',
    birthDate: { y: 1974, m: 8, d: 12 },
    sex: 'F' as const,
    expiryDate: { y: 2031, m: 4, d: 15 },
  };
  const zones: Array<[MrzDocumentFormat, string[], 'front' | 'back']> = [
    ['TD1', buildTd1({ ...person, documentCode: 'I<', documentNumber: 'D23145890', optional1: '', optional2: '' }), 'back'],
    ['TD2', buildTd2({ ...person, documentCode: 'I<', documentNumber: 'D23145890', optional: '' }), 'back'],
    ['TD3', buildTd3({ ...person, documentCode: 'P<', documentNumber: 'L898902C3', personalNumber: 'ZE184226B' }), 'front'],
    ['MRVA', buildMrv('MRVA', { ...person, documentCode: 'V<', documentNumber: 'L8988901C', optional: '' }), 'front'],
    ['MRVB', buildMrv('MRVB', { ...person, documentCode: 'V<', documentNumber: 'L8988901C', optional: '' }), 'front'],
  ];
  const rows = ['| generated format | exact and valid, by quarter turns 0 / 1 / 2 / 3 | CPU ms p50 |', '|---|---|---|'];
  for (const [format, lines, side] of zones) {
    const marks: string[] = [];
    const cpu: number[] = [];
    const png = await renderMrzDocumentPng(format, lines, 'MUESTRA');
    for (const turns of [0, 1, 2, 3]) {
      const image = await sharp(png)
        .resize({ width: 1400 })
        .extend({ top: 120, bottom: 120, left: 120, right: 120, background: '#2b2b2e' })
        .rotate(90 * turns)
        .jpeg({ quality: 88 })
        .toBuffer();
      const started = process.cpuUsage();
      const result = await engine.read({ image, side, passportHint: format === 'TD3' });
      const used = process.cpuUsage(started);
      cpu.push((used.user + used.system) / 1000);
      const exact = JSON.stringify(result.mrz?.lines) === JSON.stringify(lines) && result.mrz?.valid === true;
      marks.push(exact ? 'yes' : `no (${result.mrz?.lines.join(' / ') ?? 'none'})`);
    }
    rows.push(`| ${format} | ${marks.join(' / ')} | ${median(cpu).toFixed(0)} |`);
  }
  return rows;
}

export async function realDocuments(): Promise<SuiteResult> {
  const title = 'Real development set (../shared/data/real-dev): MRZ and printed fields through the /v2/ocr engine';
  if (!realDevPresent()) {
    const message = `skipped: ${REAL_DEV} is absent (the real development set is kept outside the repository)`;
    console.log(message);
    return { title, lines: [message] };
  }
  const cases = await realCases();
  const only = process.env.REAL_ONLY;
  const engine = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
  const outcomes: CaseOutcome[] = [];
  const loadBefore = os.loadavg()[0]!;
  try {
    // One warm-up read so the first timing is not the workers' start.
    await readCase(engine, cases[0]!);
    for (const c of cases) {
      if (only && !c.file.includes(only)) continue;
      const repeats = [];
      const cpu = [];
      let last: OcrResult | undefined;
      for (let i = 0; i < 2; i++) {
        const { result, ms, cpuMs } = await readCase(engine, c);
        repeats.push(ms);
        cpu.push(cpuMs);
        last = result;
      }
      const outcome = scoreCase(c, last!, median(repeats));
      outcome.cpuMs = median(cpu);
      outcomes.push(outcome);
      console.log(`${c.file}: ${outcome.ms.toFixed(0)} ms ${outcome.notes.join('; ') || 'all right'}`);
    }
  } finally {
    await engine.close();
  }
  const loadAfter = os.loadavg()[0]!;
  const proofs = await (async () => {
    const again = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
    try {
      return await realProofLines(again);
    } finally {
      await again.close();
    }
  })();
  const generated = await (async () => {
    const again = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
    try {
      return await generatedFormats(again);
    } finally {
      await again.close();
    }
  })();
  const withMrz = outcomes.filter((o) => cases.find((c) => c.file === o.file)?.mrz);
  const rate = (hits: number, total: number) => (total > 0 ? `${hits}/${total}` : '—');
  const lines = [
    `CPU ${os.cpus()[0]?.model ?? 'unknown'} (${os.cpus().length} cores), load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; p50 of 2 reads per image after one warm-up read.`,
    '',
    '| image | MRZ lines exact | validity as printed | MRZ fields | printed fields | p50 ms | CPU ms | notes |',
    '|---|---|---|---|---|---|---|---|',
    ...outcomes.map((o) => {
      const c = cases.find((x) => x.file === o.file)!;
      return `| ${o.file} | ${c.mrz ? (o.linesExact ? 'yes' : 'no') : o.linesExact ? 'none reported (right)' : 'MRZ reported (wrong)'} | ${c.mrz ? `${o.validityRight ? 'right' : 'wrong'} (${c.printedValid ? 'valid' : 'invalid'})` : '—'} | ${rate(o.mrzFieldsRight, o.mrzFieldsTotal)} | ${rate(o.printedRight, o.printedTotal)} | ${o.ms.toFixed(0)} | ${(o.cpuMs ?? 0).toFixed(0)} | ${o.notes.join('; ').replace(/\|/g, '/') || ''} |`;
    }),
    '',
    `MRZ read exactly: ${withMrz.filter((o) => o.linesExact).length}/${withMrz.length}; validity reported as printed: ${withMrz.filter((o) => o.validityRight).length}/${withMrz.length}; negatives without a reported MRZ: ${outcomes.filter((o) => !cases.find((c) => c.file === o.file)?.mrz && o.linesExact).length}/${outcomes.length - withMrz.length}; p50 over images ${median(outcomes.map((o) => o.ms)).toFixed(0)} ms wall (slowest ${Math.max(...outcomes.map((o) => o.ms)).toFixed(0)} ms), ${median(outcomes.map((o) => o.cpuMs ?? 0)).toFixed(0)} CPU-ms per read (the process's user+system time, tesseract's worker threads included).`,
    '',
    ...generated,
    ...proofs,
  ];
  return { title, lines };
}
