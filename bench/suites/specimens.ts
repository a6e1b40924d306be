// Issuer specimens of Mexican documents (bench/specimens/specimens.json): fictitious holders printed by the issuer,
// found in public repositories and not committed. Each present one is read through the OCR engine and scored field
// by field against what it prints: exact, empty (left for the person), or wrong (a value unlike the print).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOcrEngine } from '../../apps/server/src/engines/ocr/engine.js';
import type { SuiteResult } from '../run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifestFile = path.resolve(here, '../specimens/specimens.json');
const specimensDir = process.env.KYC_SPECIMENS_DIR ?? path.resolve(here, '../.specimens');

interface Specimen {
  file: string;
  sha256: string;
  document: string;
  source: string;
  kind: string;
  side: 'front' | 'back';
  printed: Record<string, string>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function issuerSpecimens(): Promise<SuiteResult> {
  const { specimens } = JSON.parse(readFileSync(manifestFile, 'utf8')) as { specimens: Specimen[] };
  const lines = [
    `Issuer specimens (bench/specimens/specimens.json), read from ${path.relative(process.cwd(), specimensDir) || specimensDir}; p50 of 3 reads after one warm-up read. CPU ${os.cpus()[0]?.model ?? 'unknown'}, load average ${os.loadavg()[0]!.toFixed(2)} before.`,
    '',
    '| specimen | fields exact | empty | wrong (read unlike the print) | wall p50 ms |',
    '| --- | --- | --- | --- | --- |',
  ];
  const engine = await createOcrEngine();
  try {
    for (const specimen of specimens) {
      const file = path.join(specimensDir, specimen.file);
      if (!existsSync(file)) {
        lines.push(`| ${specimen.document} | not present: fetch it from ${specimen.source} into ${specimensDir}/${specimen.file} | | | |`);
        continue;
      }
      const image = await readFile(file);
      if (sha256(image) !== specimen.sha256) {
        lines.push(`| ${specimen.document} | ${specimen.file} is not the file listed (sha256 differs) | | | |`);
        continue;
      }
      await engine.read({ image, side: specimen.side });
      const walls: number[] = [];
      let result = await engine.read({ image, side: specimen.side });
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        result = await engine.read({ image, side: specimen.side });
        walls.push(performance.now() - started);
      }
      const keys = Object.keys(specimen.printed);
      const got = (key: string) => String(result.ocrData[key] ?? '');
      const exact = keys.filter((k) => got(k) === specimen.printed[k]);
      const empty = keys.filter((k) => got(k) === '');
      const wrong = keys.filter((k) => got(k) !== '' && got(k) !== specimen.printed[k]);
      const p50 = [...walls].sort((a, b) => a - b)[1]!;
      lines.push(
        `| ${specimen.document} (${specimen.kind}) | ${exact.length}/${keys.length} | ${empty.join(', ') || 'none'} | ${wrong.map((k) => `${k}: ${got(k)} (printed ${specimen.printed[k]})`).join('; ') || 'none'} | ${Math.round(p50)} |`,
      );
      console.log(`${specimen.file}: ${exact.length}/${keys.length} exact; warnings ${result.warnings.join(', ')}`);
    }
  } finally {
    await engine.close();
  }
  return { title: 'Issuer specimens of Mexican documents (issue 20)', lines };
}
