import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateFixtureSet } from '@kyc/fixtures';
import { buildApp } from '../../apps/server/src/app.js';
import { AppCaches } from '../../apps/server/src/caches.js';
import { createBlobStore } from '../../apps/server/src/blob/index.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { createDataCipher, loadDataKey } from '../../apps/server/src/crypto/data-cipher.js';
import { evidenceKind } from '../../apps/server/src/domain/evidence-kinds.js';
import { scoreTransaction } from '../../apps/server/src/features/results/score.js';
import { readScoreFacts, scoreSettings } from '../../apps/server/src/features/results/facts.js';
import { addEvidence } from '../../apps/server/src/store/evidence.js';
import { writeParams } from '../../apps/server/src/store/grantors.js';
import type { SuiteResult } from '../run.js';

const demoId = '00000000-0000-4000-8000-000000000001';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function timed(runs: number, run: () => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

/**
 * Score and document latency at the server (in-process, Fastify inject, SQLite) for a transaction carrying the
 * evidence of a whole journey: real generated INE images as blobs, the face, CURP, INE and proof decisions, and
 * 20 lifecycle events.
 */
export async function resultsLatency(): Promise<SuiteResult> {
  const work = mkdtempSync(path.join(tmpdir(), 'kyc-bench-results-'));
  try {
    await generateFixtureSet({ outDir: path.join(work, 'fx'), seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
    const config = loadConfig({ DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'silent', WEB_DIST: path.join(work, 'none') });
    // The app's caches, shared with this bench so that its parameter write below empties them as the app's would.
    const caches = new AppCaches();
    const app = await buildApp(config, { caches });
    const cipher = createDataCipher(loadDataKey(config).key);
    const blobs = createBlobStore(config, cipher);
    // The demo secret: the score, documents and bundle are server reads (issue #15); the flow calls ignore it.
    const headers = { apikey: 'demo', authorization: 'Bearer demo-secret', transaccion: randomUUID(), cliente: randomUUID() };
    await app.inject({ method: 'GET', url: '/v1/params', headers });
    // buildApp owns its database; reach it through the same file for the evidence the other capabilities write.
    const { createDatabase } = await import('../../apps/server/src/store/db.js');
    const db = createDatabase(config.database);
    const base = { uuidTrx: headers.transaccion, grantorId: demoId };
    const truth = JSON.parse(readFileSync(path.join(work, 'fx', 'ine-000-front-clean.json'), 'utf8')) as { ocrFront: Record<string, string> };
    for (const [kind, file] of [
      [evidenceKind.idFront, 'front'],
      [evidenceKind.idBack, 'back'],
    ] as const) {
      const image = await blobs.put(`${demoId}/${headers.cliente}/identificacion/${headers.transaccion}-${file}.png`, readFileSync(path.join(work, 'fx', `ine-000-${file}-clean.png`)), {
        contentType: 'image/png',
      });
      await addEvidence(db, cipher, {
        ...base,
        kind,
        blobKey: image.key,
        sha256: image.sha256,
        payload: { verdict: { kind: 'accepted' }, documentType: 'INE', ocrData: kind === evidenceKind.idFront ? truth.ocrFront : {}, mrz: { valid: true, checkDigits: {} }, warnings: [] },
      });
    }
    await addEvidence(db, cipher, { ...base, kind: evidenceKind.renapo, payload: { curp: truth.ocrFront.curp, outcome: 'passed', checks: [], source: 'local' } });
    await addEvidence(db, cipher, { ...base, kind: evidenceKind.ine, payload: { outcome: 'passed', checks: [], source: 'local' } });
    await addEvidence(db, cipher, {
      ...base,
      kind: evidenceKind.videoToken,
      payload: { match: true, faceScore: 0.8, threshold: 0.6, liveness: { passed: true, spoof: false, signals: {} }, spokenCode: { verified: null, engine: 'none', detail: '' } },
    });
    await addEvidence(db, cipher, { ...base, kind: evidenceKind.proofReading, payload: { outcome: 'passed', nameMatchesId: true, recent: true } });
    for (let i = 0; i < 20; i += 1) {
      await app.inject({
        method: 'POST',
        url: '/v1/update_cycle',
        headers,
        payload: {
          trx_id: headers.transaccion,
          company_id: demoId,
          client_id: headers.cliente,
          step: `paso_${i}`,
          event: JSON.stringify({ status: 'OK', step: `paso_${i}`, description: 'Paso completado' }),
          origin: 'celd',
        },
      });
    }
    await writeParams({ db, caches }, demoId, { SEND_ZIP_SEMAFORO: 'true' });

    const facts = await readScoreFacts(db, cipher, headers.transaccion);
    const settings = scoreSettings([]);
    const pure = await timed(10_000, async () => scoreTransaction(facts, settings));
    const scoreUrl = `/v1/query_score/${headers.cliente}/${headers.transaccion}`;
    const scored = (await app.inject({ method: 'GET', url: scoreUrl, headers })).json().payload as { flag: string; Fields: { passed: boolean; detail: string }[] };
    const flag = scored.flag;
    if (process.env.BENCH_DEBUG) console.log(scored.Fields.filter((f) => !f.passed));
    const score = await timed(500, () => app.inject({ method: 'GET', url: scoreUrl, headers }));
    let sizes: number[] = [];
    const documents = await timed(20, async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/proccessdocuments', headers, payload: { uuidUser: headers.cliente } });
      if (res.statusCode !== 200) throw new Error(`proccessdocuments answered ${res.statusCode}`);
      sizes = [];
      for (const url of Object.values(res.json().payload.links as Record<string, string>)) {
        sizes.push((await app.inject({ method: 'GET', url: new URL(url).pathname })).rawPayload.length);
      }
    });
    const bundleBody = { uuidUser: headers.cliente, custom_uuid: 'x', tipo_envio: 'COMPLETO', semaforo: 'green' };
    const bundle = await timed(5, async () => {
      const res = await app.inject({ method: 'POST', url: '/v1/nom_151', headers, payload: bundleBody });
      if (res.statusCode !== 200) throw new Error(`nom_151 answered ${res.statusCode}: ${res.body}`);
    });
    await db.destroy();
    await app.close();
    const ms = (v: number) => v.toFixed(v < 1 ? 3 : 1);
    return {
      title: 'Results (SQLite, in-process inject): score and document generation for a whole journey (2 INE images, 6 decisions, 20 lifecycle events)',
      lines: [
        '| operation | runs | p50 ms | p99 ms |',
        '|---|---|---|---|',
        `| score rules (pure function) | 10000 | ${ms(pure.p50)} | ${ms(pure.p99)} |`,
        `| GET query_score (flag ${flag}) | 500 | ${ms(score.p50)} | ${ms(score.p99)} |`,
        `| POST proccessdocuments (3 PDFs rendered, encrypted, stored, 3 links) + 3 downloads | 20 | ${ms(documents.p50)} | ${ms(documents.p99)} |`,
        `| POST nom_151 (zip, manifest, local RFC 3161 token) | 5 | ${ms(bundle.p50)} | ${ms(bundle.p99)} |`,
        '',
        `PDF sizes: clause ${(sizes[0] ?? 0) / 1000} KB, authorization ${(sizes[1] ?? 0) / 1000} KB, report ${(sizes[2] ?? 0) / 1000} KB.`,
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
