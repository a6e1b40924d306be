import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { SuiteResult } from '../run.js';
import { repoRoot, startNodeProcess } from './server-process.js';

const durationSeconds = 10;
const connections = 10;

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: durationSeconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Grantor-parameters requests per second on SQLite, as a ratio to a bare Fastify route in the same run. */
export async function grantorParamsThroughput(): Promise<SuiteResult> {
  const product = await startNodeProcess(path.join(repoRoot, 'apps/server/dist/main.js'), '/readyz');
  const headers = { apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
  const warm = await fetch(`${product.url}/v1/params`, { headers });
  if (!warm.ok) throw new Error(`grantor params answered ${warm.status}`);
  // The bare route answers the very same document, so the ratio measures what the product adds per request.
  const work = mkdtempSync(path.join(tmpdir(), 'kyc-bench-params-'));
  const payloadFile = path.join(work, 'params.json');
  const document = await warm.text();
  writeFileSync(payloadFile, document);
  const productFigures = await measure(`${product.url}/v1/params`, headers);
  await product.stop();

  const bare = await startNodeProcess(path.join(repoRoot, 'bench/suites/bare-fastify.mjs'), '/healthz', { BARE_PAYLOAD_FILE: payloadFile });
  const bareFigures = await measure(`${bare.url}/bare`);
  const encodedFigures = await measure(`${bare.url}/bare-encoded`);
  await bare.stop();
  rmSync(work, { recursive: true, force: true });

  const ratio = productFigures.rps / bareFigures.rps;
  return {
    title: `Grantor parameters (GET /v1/params, SQLite) vs a bare Fastify route answering the same ${(document.length / 1024).toFixed(1)} KB document — autocannon ${connections} connections, ${durationSeconds} s each`,
    lines: [
      '| route | req/s | p50 ms | p99 ms |',
      '|---|---|---|---|',
      `| bare Fastify | ${bareFigures.rps.toFixed(0)} | ${bareFigures.p50} | ${bareFigures.p99} |`,
      `| GET /v1/params | ${productFigures.rps.toFixed(0)} | ${productFigures.p50} | ${productFigures.p99} |`,
      `| bare Fastify sending the document already encoded (reference) | ${encodedFigures.rps.toFixed(0)} | ${encodedFigures.p50} | ${encodedFigures.p99} |`,
      '',
      `Ratio: **${(ratio * 100).toFixed(1)}%** of the bare route (target ≥ 50%); ` +
        `${((productFigures.rps / encodedFigures.rps) * 100).toFixed(1)}% of the bare route sending the document already encoded, ` +
        `as the product does since it keeps the serialized document.`,
    ],
  };
}
