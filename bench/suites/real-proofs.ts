// Proofs of address in the 'real' suite: the real bills of ../shared/data/real-dev/proofs (read in place, never
// copied) scored field by field against their ground truth, with generated bills of every layout beside them.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { degradeProof, FOREIGN_PROOF_LAYOUTS, PROOF_LAYOUTS, renderProof, type ProofTruth } from '@kyc/fixtures';
import type { OcrEngine } from '../../apps/server/src/engines/ocr/types.js';
import { REAL_DEV, realProofCases, realProofsPresent, scoreProof } from '../../apps/server/test/support/real-dev.js';

const FIELDS = ['holderName', 'street', 'exteriorNumber', 'settlement', 'postalCode', 'municipality', 'state', 'issueDate', 'amountDue', 'dueDate', 'serviceNumber', 'periodFrom', 'periodTo'] as const;

function truthFields(t: ProofTruth): Record<string, string> {
  // Bills from abroad: no settlement; the US bill prints a due date and no issue date, the French one the reverse.
  if (t.layout === 'us' || t.layout === 'fr') {
    const { holderName, street, exteriorNumber, postalCode, municipality, state, amount } = t;
    return { holderName, street, exteriorNumber, postalCode, municipality, state, amountDue: amount, ...(t.layout === 'us' ? { dueDate: t.dueDate ?? '' } : { issueDate: t.issueDate }) };
  }
  return {
    holderName: t.holderName,
    street: t.street,
    exteriorNumber: t.exteriorNumber,
    interiorNumber: t.interiorNumber ?? '',
    settlement: t.settlement,
    postalCode: t.postalCode,
    municipality: t.municipality,
    state: t.state,
    issueDate: t.issueDate,
    // Amounts are returned as printed with their spaces dropped ('$ 1,234.56' → '$1,234.56').
    amountDue: t.amount.replace(/\s+/g, ''),
    dueDate: t.dueDate ?? '',
    serviceNumber: t.serviceNumber ?? '',
    periodFrom: t.periodFrom ?? '',
    periodTo: t.periodTo ?? '',
  };
}

export async function realProofLines(engine: OcrEngine): Promise<string[]> {
  const lines = ['', '#### Proofs of address (label-anchored bill reader)', ''];
  if (!realProofsPresent()) {
    const message = `skipped: ${path.join(REAL_DEV, 'proofs')} is absent`;
    console.log(message);
    lines.push(message);
  } else {
    lines.push(`load average before ${os.loadavg()[0]!.toFixed(2)}`, '', '| real bill | fields right | invented (returned but wrong) | ms | read |', '|---|---|---|---|---|');
    for (const c of realProofCases()) {
      const started = performance.now();
      const read = await engine.readProof(await readFile(path.join(REAL_DEV, c.file)));
      const ms = performance.now() - started;
      const score = scoreProof(c.expected, read.fields as Record<string, string>);
      console.log(c.file, JSON.stringify(read.fields));
      lines.push(
        `| ${path.basename(c.file)} | ${score.right}/${score.total} | ${score.invented.length === 0 ? 'none' : score.invented.join(', ')} | ${ms.toFixed(0)} | ${JSON.stringify(read.fields).replace(/\|/g, '/')} |`,
      );
    }
  }
  // Generated bills: one per layout and seed, clean and photographed.
  const sets = new Map<string, { right: number; total: number; invented: number; n: number }>();
  for (const layout of [...PROOF_LAYOUTS, ...FOREIGN_PROOF_LAYOUTS]) {
    for (const seed of ['r1', 'r2']) {
      const clean = await renderProof({ seed: `real-${seed}`, layout, referenceDate: '2026-11-26' });
      for (const bill of [clean, await degradeProof(clean, 'phone')]) {
        const read = await engine.readProof(bill.png);
        const score = scoreProof(truthFields(bill.truth), read.fields as Record<string, string>);
        const key = `${layout} ${bill.truth.degradation}`;
        const set = sets.get(key) ?? { right: 0, total: 0, invented: 0, n: 0 };
        set.right += score.right;
        set.total += score.total;
        set.invented += score.invented.length;
        set.n++;
        sets.set(key, set);
      }
    }
  }
  lines.push(
    '',
    `load average after ${os.loadavg()[0]!.toFixed(2)}; fields scored: ${FIELDS.join(', ')} (every Mexican bill also carries its amount and due date, cfe and luz bills their service number and period; us and fr bills, drawn as the real samples, their amount and the date each prints, no settlement).`,
    '',
    '| generated bills (2 per row) | fields right | values returned but wrong |',
    '|---|---|---|',
    ...[...sets.entries()].map(([key, s]) => `| ${key} | ${s.right}/${s.total} | ${s.invented} |`),
  );
  return lines;
}
