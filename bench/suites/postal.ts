import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { AppCaches } from '../../apps/server/src/caches.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { importPostalCatalogue, samplePostalCodes, timePostalLookups, writeSampleCatalogue } from '../../apps/server/src/features/postal/index.js';
import { createDatabase } from '../../apps/server/src/store/db.js';
import { migrateToLatest } from '../../apps/server/src/migrations.js';
import type { SuiteResult } from '../run.js';
import { repoRoot, startNodeProcess } from './server-process.js';

const nationalRows = 156_000;

/** Import of a generated national-size catalogue, lookup latency at the server, and lookups per second over HTTP. */
export async function postalCatalogue(): Promise<SuiteResult> {
  const work = mkdtempSync(path.join(tmpdir(), 'kyc-bench-postal-'));
  const file = path.join(work, 'CPdescarga.txt');
  try {
    await writeSampleCatalogue(file, { rows: nationalRows });
    const config = loadConfig({ DATA_DIR: work, LOG_LEVEL: 'silent' });
    const db = createDatabase(config.database);
    await migrateToLatest(db);
    const target = { db, caches: new AppCaches() };
    const first = await importPostalCatalogue(target, file);
    const again = await importPostalCatalogue(target, file);
    const codes = samplePostalCodes(nationalRows).slice(0, 5_000);
    const uncached = await timePostalLookups(target, codes, { cached: false });
    const cached = await timePostalLookups(target, codes, { cached: true, rounds: 2 });
    await db.destroy();

    // Over HTTP, against the built server with the same catalogue loaded.
    const server = await startNodeProcess(path.join(repoRoot, 'apps/server/dist/main.js'), '/readyz', { DATA_DIR: work });
    const headers = { apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID(), 'content-type': 'application/json' };
    let next = 0;
    const bodyFor = (cp: string | undefined) => JSON.stringify({ address: { cp }, uuid: headers.cliente });
    const http = await autocannon({
      url: `${server.url}/v1/postalcodes`,
      method: 'POST',
      // autocannon sizes Content-Length from the initial body; every request then carries another code.
      body: bodyFor(codes[0]),
      connections: 10,
      duration: 10,
      headers,
      setupRequest: (request) => ({
        ...request,
        body: bodyFor(codes[next++ % codes.length]),
      }),
    });
    await server.stop();
    if (http.non2xx > 0) throw new Error(`postalcodes answered ${http.non2xx} non-2xx responses`);

    return {
      title: `Postal-code catalogue (SQLite): ${nationalRows.toLocaleString('en')} generated rows in the official format`,
      lines: [
        `Import: **${(first.durationMs / 1000).toFixed(2)} s** (${first.rowsLoaded} rows loaded, ${first.rowsRejected} rejected); re-import ${(again.durationMs / 1000).toFixed(2)} s (target < 10 s).`,
        '',
        '| lookup at the server | lookups | p50 ms | p99 ms |',
        '|---|---|---|---|',
        `| database (cache cleared) | ${uncached.lookups} | ${uncached.p50Ms.toFixed(3)} | ${uncached.p99Ms.toFixed(3)} |`,
        `| cached | ${cached.lookups} | ${cached.p50Ms.toFixed(4)} | ${cached.p99Ms.toFixed(4)} |`,
        '',
        `HTTP POST /v1/postalcodes, 10 connections, 10 s, 5,000 distinct codes: **${http.requests.average.toFixed(0)} req/s**, p50 ${http.latency.p50} ms, p99 ${http.latency.p99} ms (target p50 < 2 ms at the server).`,
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
