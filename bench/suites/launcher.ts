import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { SuiteResult } from '../run.js';
import { repoRoot, startNodeProcess } from './server-process.js';

/** Size of the launcher as the product serves it to partner pages (budget: 8 KB gzipped). */
export async function launcherSize(): Promise<SuiteResult> {
  const product = await startNodeProcess(path.join(repoRoot, 'apps/server/dist/main.js'), '/readyz');
  const rows: string[] = [];
  let iifeGzip = 0;
  try {
    for (const file of ['launcher.js', 'launcher.mjs']) {
      const response = await fetch(`${product.url}/launcher/v1/${file}`);
      if (!response.ok) throw new Error(`/launcher/v1/${file} answered ${response.status}: run npm run build`);
      const body = Buffer.from(await response.arrayBuffer());
      const gzip = gzipSync(body, { level: 9 }).length;
      const brotli = brotliCompressSync(body).length;
      if (file === 'launcher.js') iifeGzip = gzip;
      rows.push(`| /launcher/v1/${file} | ${body.length} | ${gzip} | ${brotli} | ${response.headers.get('cache-control')} |`);
    }
  } finally {
    await product.stop();
  }
  return {
    title: 'Launcher served to partner pages (bytes; gzip -9 and brotli of the served file)',
    lines: ['| file | raw | gzip | brotli | cache-control |', '|---|---|---|---|---|', ...rows, '', `IIFE build: **${(iifeGzip / 1024).toFixed(2)} KB gzipped** (budget ≤ 8 KB).`],
  };
}
