import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { faceFrameJpeg, generateFixtureSet, writeFaceVideo, type GroundTruth } from '@kyc/fixtures';
import pg from 'pg';
import type { SuiteResult } from '../run.js';
import { call, multipart, startNode, startProxy, type NodeProcess, type Reply } from '../../apps/server/test/scale/cluster.js';
import { startS3Server } from '../../apps/server/test/support/s3-server.js';
import { demoId } from '../../apps/server/test/support/fixtures.js';
import { repeatedReadingsAllowed } from '../../apps/server/test/support/schedule.js';
import { AppCaches } from '../../apps/server/src/caches.js';
import { createDatabase } from '../../apps/server/src/store/db.js';
import { writeParams } from '../../apps/server/src/store/grantors.js';

/**
 * `npm run bench -- scale` (issue 17 item 4): whole verifications (consents, ID front and back, face code, face
 * video, end) driven over HTTP through a round-robin proxy to 1 and then 2 API processes of the built server plus
 * one worker, on a PostgreSQL database of its own, an s3rver bucket and Redis, CONCURRENCY at once. Measured:
 * verifications a minute, p50/p95 per call, CPU-seconds per verification (the node processes' utime+stime from
 * /proc), RSS per process at its peak and a minute after the burst. Set BENCH_SCALE_COUNT / _CONCURRENCY to change
 * the burst (default 8 and 8).
 */
const SEED = 22;
const digitsMs = [1800, 3000, 3900, 5400];
const count = Number(process.env.BENCH_SCALE_COUNT ?? 8);
const concurrency = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 8);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ticks = 100; // USER_HZ on Linux

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Files {
  front: Buffer;
  back: Buffer;
  photo: Buffer;
  video: Buffer;
}

async function fixtures(dir: string): Promise<Files> {
  await generateFixtureSet({ outDir: dir, seed: SEED, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
  const truth = JSON.parse(await readFile(path.join(dir, 'ine-000-front-clean.json'), 'utf8')) as GroundTruth;
  const faceId = truth.face!.id;
  const video = await writeFaceVideo({ digitTimesMs: digitsMs, reactionMs: [420, 470, 400, 450], faceId, kind: 'live', outDir: dir, seed: SEED, format: 'mp4' });
  return {
    front: await readFile(path.join(dir, 'ine-000-front-clean.png')),
    back: await readFile(path.join(dir, 'ine-000-back-clean.png')),
    photo: await faceFrameJpeg(faceId),
    video: await readFile(video.video),
  };
}

/** Where OCR and face work runs: on each API node (default), or on the worker (ENGINE_SERVICE_URL). */
type EnginePlace = 'api' | 'worker';
const engineToken = randomBytes(24).toString('hex');

interface Run {
  apiNodes: number;
  engines: EnginePlace;
  completed: number;
  failed: string[];
  wallS: number;
  latencies: Map<string, number[]>;
  cpu: Map<string, number>;
  peakRss: Map<string, number>;
  idleRss: Map<string, number>;
  afterRss: Map<string, number>;
  busyRetries: number;
}

async function runCluster(apiNodes: number, engines: EnginePlace, files: Files, dir: string): Promise<Run> {
  const dbName = `kyc_bench_${randomBytes(5).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  await admin(`create database ${dbName}`);
  const s3 = await startS3Server();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    VIDEO_TOKEN_TEST_SCHEDULE_MS: '1800,1200,900,1500',
    DATABASE_URL: dbUrl.toString(),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...s3.env,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    WEB_DIST: path.join(dir, 'no-web'),
    CONSOLE_DIST: path.join(dir, 'no-console'),
    RATE_LIMITS: 'off',
    // Worker threads per engine on each API node (unset: the server's default, one per core up to 2).
    ...(process.env.ENGINE_WORKERS ? { ENGINE_WORKERS: process.env.ENGINE_WORKERS } : {}),
    // As the image and npm start run the server: glibc's arenas (one per thread that allocated) outlive the engines'
    // worker threads; two keep a node's memory after a burst down (bench/RESULTS.md, session 12).
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  };
  const nodes: NodeProcess[] = [];
  try {
    const onWorker = engines === 'worker';
    const worker = await startNode('worker', 'worker', onWorker ? { ...env, ENGINE_SERVICE_TOKEN: engineToken } : env);
    nodes.push(worker);
    // Every verification sends the one generated reading of the one holder (the load is the subject): the demo
    // grantor must not refuse it as a replay of the first. The worker has migrated the database; the nodes start after.
    const db = createDatabase({ kind: 'postgres', url: dbUrl.toString() });
    await writeParams({ db, caches: new AppCaches() }, demoId, repeatedReadingsAllowed).finally(() => db.destroy());
    const apiEnv = onWorker ? { ...env, ENGINE_SERVICE_URL: worker.url, ENGINE_SERVICE_TOKEN: engineToken } : env;
    for (let i = 1; i <= apiNodes; i += 1) nodes.push(await startNode(`api-${i}`, 'api', apiEnv));
    const api = nodes.filter((n) => n.role === 'api');
    const proxy = await startProxy(() => api);
    const pids = new Map(nodes.map((n) => [n.name, n.child.pid!]));
    const idleRss = new Map([...pids].map(([name, pid]) => [name, rssMb(pid)]));
    const cpuBefore = new Map([...pids].map(([name, pid]) => [name, cpuSeconds(pid)]));
    const peakRss = new Map(idleRss);
    const sampler = setInterval(() => {
      for (const [name, pid] of pids) peakRss.set(name, Math.max(peakRss.get(name) ?? 0, rssMb(pid)));
    }, 500);
    const latencies = new Map<string, number[]>();
    let busyRetries = 0;

    const timed = async (label: string, url: string, options: Parameters<typeof call>[1]): Promise<Reply> => {
      // The flow's client: a 503 is sent again after its Retry-After (apps/web/src/api/client.ts), at most 4 times.
      for (let retry = 0; ; retry += 1) {
        const started = performance.now();
        const reply = await call(proxy.url + url, options);
        const list = latencies.get(label) ?? [];
        list.push(performance.now() - started);
        latencies.set(label, list);
        if (reply.status !== 503 || retry >= 4) return reply;
        busyRetries += 1;
        await new Promise((resolve) => setTimeout(resolve, Number(reply.headers['retry-after'] ?? 5) * 1000));
      }
    };
    const must = async (label: string, url: string, options: Parameters<typeof call>[1]) => {
      const reply = await timed(label, url, options);
      if (reply.status !== 200) throw new Error(`${label}: ${reply.status} ${reply.text.slice(0, 200)}`);
      return reply;
    };
    const form = (h: Record<string, string>, parts: Parameters<typeof multipart>[0]) => {
      const { body, contentType } = multipart(parts);
      return { method: 'POST', headers: { ...h, 'content-type': contentType }, body };
    };
    const jsonBody = (h: Record<string, string>, payload: unknown) => ({ method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(payload) });

    async function verification() {
      const h = { apikey: 'demo', transaccion: randomUUID(), cliente: randomUUID() };
      await must('GET /v1/params', '/v1/params', { headers: h });
      for (const paso of ['terminos', 'clausula', 'autorizacion']) {
        const dato = JSON.stringify({ version: '2024-01', sha256: 'a'.repeat(64), userAgent: 'bench' });
        const event = {
          uuid_clt: h.cliente,
          uuid_trx: h.transaccion,
          uuid_oto: '00000000-0000-4000-8000-000000000001',
          apikey: 'demo',
          paso,
          tipo: 'Aceptación',
          dato,
          finished: false,
          time_stamp: new Date().toISOString(),
        };
        await must('POST /v1/celd_events', '/v1/celd_events', jsonBody(h, event));
      }
      for (const [side, data] of [['front', files.front] as const, ['back', files.back] as const]) {
        await must(
          `POST /v2/ocr ${side}`,
          '/v2/ocr',
          form(h, [
            { name: 'uuidUser', value: h.cliente },
            { name: 'side', value: side },
            { name: 'ine', filename: `${side}.png`, contentType: 'image/png', data },
          ]),
        );
      }
      const otp = await must(
        'POST /v1/otp',
        '/v1/otp',
        form(h, [
          { name: 'uuid', value: h.cliente },
          { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: files.photo },
        ]),
      );
      const codes = otp.json().payload.codes as { created: string; expire: string };
      const fields = { uuidUser: h.cliente, created: codes.created, expire: codes.expire, originOS: 'android', service_call: 'videotoken-embedding', identificacion_pasaporte: 'false' };
      const video = await must(
        'POST /v2/videotoken',
        '/v2/videotoken',
        form(h, [...Object.entries(fields).map(([name, value]) => ({ name, value })), { name: 'videotoken', filename: 'video.mp4', contentType: 'video/mp4', data: files.video }]),
      );
      if (video.json().payload?.match !== true) throw new Error(`face video not matched: ${video.text.slice(0, 200)}`);
      const finished = {
        trx_id: h.transaccion,
        company_id: '00000000-0000-4000-8000-000000000001',
        client_id: h.cliente,
        step: 'finished',
        event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }),
        origin: 'celd',
      };
      await must('POST /v1/update_cycle', '/v1/update_cycle', jsonBody(h, finished));
    }

    let next = 0;
    let completed = 0;
    const failed: string[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next += 1;
          try {
            await verification();
            completed += 1;
          } catch (error) {
            failed.push(error instanceof Error ? error.message : String(error));
          }
        }
      }),
    );
    const wallS = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const cpu = new Map([...pids].map(([name, pid]) => [name, cpuSeconds(pid) - cpuBefore.get(name)!]));
    // A minute after the burst: does memory come back?
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const afterRss = new Map([...pids].map(([name, pid]) => [name, rssMb(pid)]));
    await proxy.close();
    return { apiNodes, engines, completed, failed, wallS, latencies, cpu, peakRss, idleRss, afterRss, busyRetries };
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await s3.close();
    await admin(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
  }
}

export async function scaleOut(): Promise<SuiteResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-bench-scale-'));
  const loadBefore = os.loadavg();
  try {
    const files = await fixtures(dir);
    const runs: Run[] = [];
    // BENCH_SCALE_ENGINES=api,worker measures both placements of the OCR and face work (docs/decisions.md).
    const places = (process.env.BENCH_SCALE_ENGINES ?? 'api').split(',') as EnginePlace[];
    for (const engines of places) {
      for (const apiNodes of (process.env.BENCH_SCALE_NODES ?? '1,2').split(',').map(Number)) {
        console.log(`scale: ${apiNodes} API node(s) + 1 worker, engines on the ${engines} process(es), ${count} verifications, ${concurrency} at once`);
        runs.push(await runCluster(apiNodes, engines, files, dir));
      }
    }
    const loadAfter = os.loadavg();
    const lines: string[] = [
      `Load average before / after: ${loadBefore.map((l) => l.toFixed(1)).join(' ')} / ${loadAfter.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores${loadBefore[0]! > 1.5 ? ' shared with other work: wall figures (per minute, latencies) are inflated by it; CPU-seconds are not' : ' (a quiet machine)'}.`,
      `Each verification: 3 consents, ID front and back (OCR), face code (/v1/otp), face video (/v2/videotoken, H.264 8 s), end event (webhook job); ${count} verifications, ${concurrency} at once, through a round-robin proxy; PostgreSQL, s3rver, Redis; engine workers per node: ${process.env.ENGINE_WORKERS ?? 'the default (one per core, at most 2)'}.`,
      '',
      '| API nodes | engines on | completed | failed | 503 retries | wall s | verifications/min | per core | cores busy | CPU-s per verification (all processes) | CPU-s per node |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const run of runs) {
      const total = [...run.cpu.values()].reduce((a, b) => a + b, 0);
      const perMinute = (run.completed / run.wallS) * 60;
      const cores = os.cpus().length;
      lines.push(
        `| ${run.apiNodes} | ${run.engines} | ${run.completed} | ${run.failed.length} | ${run.busyRetries} | ${run.wallS.toFixed(0)} | ${perMinute.toFixed(1)} | ${(perMinute / cores).toFixed(1)} | ${((100 * total) / (run.wallS * cores)).toFixed(0)} % | ${(total / Math.max(1, run.completed)).toFixed(2)} | ${[...run.cpu].map(([n, s]) => `${n} ${s.toFixed(1)}`).join(', ')} |`,
      );
    }
    lines.push('', '| API nodes | engines on | call | n | p50 ms | p95 ms |', '|---|---|---|---|---|---|');
    for (const run of runs) {
      for (const [label, values] of run.latencies)
        lines.push(`| ${run.apiNodes} | ${run.engines} | ${label} | ${values.length} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} |`);
    }
    lines.push('', '| API nodes | engines on | process | RSS idle MB | RSS peak MB | RSS 60 s after MB |', '|---|---|---|---|---|---|');
    for (const run of runs) {
      for (const [name, peak] of run.peakRss)
        lines.push(`| ${run.apiNodes} | ${run.engines} | ${name} | ${run.idleRss.get(name)!.toFixed(0)} | ${peak.toFixed(0)} | ${run.afterRss.get(name)!.toFixed(0)} |`);
    }
    for (const run of runs) if (run.failed.length > 0) lines.push('', `Failures with ${run.apiNodes} node(s), engines on ${run.engines}: ${run.failed.slice(0, 3).join(' / ')}`);
    return { title: `Scale-out: whole verifications per minute with 1 and 2 API nodes + 1 worker (PostgreSQL, s3rver, Redis)`, lines };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
