// Proof-of-address reading: field accuracy and latency on generated bills (clean, and degraded: a few degrees on a
// table at 1000 px with blur and JPEG 60, and a phone photo of the page at 1080x1440), read by the server's engine.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateProofSet, type ProofTruth } from '@kyc/fixtures';
import { namesMatch } from '../../apps/server/src/features/proof/proof-reading.js';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import { foldText, type ProofFields } from '../../apps/server/src/engines/ocr/fields/proof.js';
import type { SuiteResult } from '../run.js';

const SEED = 'bench-proof';
const COUNT = 10;
const REFERENCE_DATE = '2026-11-26';
const FIELDS = ['postalCode', 'street', 'exteriorNumber', 'settlement', 'issueDate', 'holderName'] as const;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

function expected(truth: ProofTruth, field: (typeof FIELDS)[number]): string {
  return {
    postalCode: truth.postalCode,
    street: truth.street,
    exteriorNumber: truth.exteriorNumber,
    settlement: truth.settlement,
    issueDate: truth.issueDate,
    holderName: truth.holderName,
  }[field];
}

export async function proofReading(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'proof-bench-'));
  const engine = await createOcrEngine();
  try {
    const truths = await generateProofSet({ outDir: dir, seed: SEED, referenceDate: REFERENCE_DATE, count: COUNT, y4m: false });
    const sets = new Map<string, { hits: Record<string, number>; n: number; ms: number[]; nameMatch: number; falseMatch: number }>();
    for (const [i, truth] of truths.entries()) {
      const image = await readFile(path.join(dir, `${truth.id}.png`));
      const started = performance.now();
      const read = await engine.readProof(image);
      const ms = performance.now() - started;
      const set = sets.get(truth.degradation) ?? { hits: {}, n: 0, ms: [], nameMatch: 0, falseMatch: 0 };
      set.n++;
      set.ms.push(ms);
      for (const field of FIELDS) {
        const got = (read.fields as ProofFields)[field];
        if (got !== undefined && foldText(got) === foldText(expected(truth, field))) set.hits[field] = (set.hits[field] ?? 0) + 1;
      }
      if (namesMatch(truth.holder, read.fields.holderName) === true) set.nameMatch++;
      const other = truths.find((t, j) => j !== i && t.holderName !== truth.holderName)!;
      if (namesMatch(other.holder, read.fields.holderName) === true) set.falseMatch++;
      sets.set(truth.degradation, set);
    }
    const names = [...sets.keys()];
    const rate = (hits: number, n: number) => `${hits}/${n}`;
    const lines = [
      `| field (accent-folded exact match) | ${names.join(' | ')} |`,
      `|---|${names.map(() => '---').join('|')}|`,
      ...FIELDS.map((f) => `| ${f} | ${names.map((s) => rate(sets.get(s)!.hits[f] ?? 0, sets.get(s)!.n)).join(' | ')} |`),
      `| name matches the ID holder | ${names.map((s) => rate(sets.get(s)!.nameMatch, sets.get(s)!.n)).join(' | ')} |`,
      `| name matches another holder (false match) | ${names.map((s) => rate(sets.get(s)!.falseMatch, sets.get(s)!.n)).join(' | ')} |`,
      `| latency p50 / p95 ms (one read at a time) | ${names.map((s) => `${percentile(sets.get(s)!.ms, 0.5).toFixed(0)} / ${percentile(sets.get(s)!.ms, 0.95).toFixed(0)}`).join(' | ')} |`,
    ];
    return { title: `Proof-of-address reading — seed ${SEED}, ${COUNT} bills (luz and teléfono layouts), each clean, combo and phone`, lines };
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}
