// The real development set (../shared/data/real-dev, read in place, never copied): every MRZ through the
// engine entry of /v2/ocr. Skipped with a message when the set is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcrEngine } from '../../../src/engines/ocr/engine.js';
import type { OcrEngine } from '../../../src/engines/ocr/types.js';
import { readCase, REAL_DEV, realCases, realDevPresent, type RealCase } from '../../support/real-dev.js';

const present = realDevPresent();
if (!present) console.log(`real-dev MRZ tests skipped: ${REAL_DEV} is absent`);

describe.skipIf(!present)('MRZs of the real development set', () => {
  let engine: OcrEngine;
  let cases: RealCase[] = [];
  beforeAll(async () => {
    engine = await createOcrEngine({ now: () => new Date('2026-11-26T12:00:00Z') });
    cases = await realCases();
  }, 60_000);
  afterAll(async () => engine?.close());

  it('reads every zone exactly, reports its check digits as printed, and no zone where there is none', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const { result } = await readCase(engine, c);
      if (!c.mrz) {
        if (result.mrz) wrong.push(`${c.file}: an MRZ reported on an image without one`);
        continue;
      }
      const exact = JSON.stringify(result.mrz?.lines) === JSON.stringify(c.mrz);
      // Never a wrong zone passed off as valid, whatever else happens.
      if (result.mrz?.valid && !exact) wrong.push(`${c.file}: a misread zone reported valid`);
      if (!exact) wrong.push(`${c.file}: read ${result.mrz?.lines.join(' / ') ?? 'nothing'}`);
      if (result.mrz?.valid !== c.printedValid) wrong.push(`${c.file}: valid ${String(result.mrz?.valid)}, printed ${String(c.printedValid)}`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
