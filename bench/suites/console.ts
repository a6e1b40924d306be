import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig, type Config } from '../../apps/server/src/config.js';
import { createDataCipher, loadDataKey, type DataCipher } from '../../apps/server/src/crypto/data-cipher.js';
import { evidenceKind } from '../../apps/server/src/domain/evidence-kinds.js';
import { blindTerm, caseNameContext, nameWords, normaliseCurpTerm } from '../../apps/server/src/features/console/case-index.js';
import { hashPassword } from '../../apps/server/src/features/console/passwords.js';
import * as consoleStore from '../../apps/server/src/features/console/store.js';
import { lifecycleStatusOf } from '../../apps/server/src/features/events/lifecycle.js';
import { insertLifecycleEvent, lifecycleContext } from '../../apps/server/src/features/events/store.js';
import { migrateToLatest } from '../../apps/server/src/migrations.js';
import { createDatabase, type Db } from '../../apps/server/src/store/db.js';
import { uuidv7 } from '../../apps/server/src/store/ids.js';
import type { SuiteResult } from '../run.js';

const demoId = '00000000-0000-4000-8000-000000000001';
const cases = Number(process.env.BENCH_CONSOLE_CASES ?? 100_000);
const runs = Number(process.env.BENCH_CONSOLE_RUNS ?? 200);

const givenNames = ['MARÍA', 'JOSÉ', 'GUADALUPE', 'JUAN', 'FERNANDA', 'LUIS', 'ANA', 'CARLOS', 'SOFÍA', 'JORGE', 'LUCÍA', 'MIGUEL', 'ELENA', 'RAÚL', 'PAULA', 'ÁNGEL'];
const surnames = [
  'HERNÁNDEZ',
  'GARCÍA',
  'MARTÍNEZ',
  'LÓPEZ',
  'GONZÁLEZ',
  'PÉREZ',
  'RODRÍGUEZ',
  'SÁNCHEZ',
  'RAMÍREZ',
  'CRUZ',
  'FLORES',
  'GÓMEZ',
  'MORALES',
  'VÁZQUEZ',
  'REYES',
  'JIMÉNEZ',
  'TORRES',
  'DÍAZ',
  'GUTIÉRREZ',
  'RUIZ',
  'MENDOZA',
  'AGUILAR',
  'ORTIZ',
  'MORENO',
  'CASTILLO',
  'ROMERO',
  'ÁLVAREZ',
  'MÉNDEZ',
  'CHÁVEZ',
  'RIVERA',
  'JUÁREZ',
  'NÚÑEZ',
  'ZÚÑIGA',
  'PEÑA',
  'OLVERA',
  'ESPINOZA',
];
/** The journey's lifecycle steps in order, as the flow reports them. */
const journey = ['inicio', 'terminos', 'identificacion', 'clausula', 'autorizacion'] as const;

/** A small deterministic generator (mulberry32), so that two runs build the same data. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function curpOf(random: () => number): string {
  const l = () => letters[Math.floor(random() * 26)]!;
  const d = () => String(Math.floor(random() * 10));
  return `${l()}${l()}${l()}${l()}${d()}${d()}${d()}${d()}${d()}${d()}${random() < 0.5 ? 'H' : 'M'}DF${l()}${l()}${l()}${l()}${d()}`;
}

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface Generated {
  /** A surname and a CURP that exist, to search for. */
  surname: string;
  curp: string;
  seconds: number;
  cpuSeconds: number;
  rows: number;
}

/**
 * `count` transactions of the demo grantor created over the last 365 days, each with the lifecycle events of the steps it
 * reached (encrypted payloads, status in clear), the console's case row (encrypted name, flag once finished, review for
 * some) and blind-index terms (CURP and name words), the outcome and a face-video decision for the finished ones.
 */
async function generate(db: Db, cipher: DataCipher, count: number, now: Date): Promise<Generated> {
  const random = rng(16);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const yearMs = 365 * 86_400_000;
  let rows = 0;
  let searched = { surname: '', curp: '' };
  const batch = 500;
  for (let offset = 0; offset < count; offset += batch) {
    const trx: Record<string, unknown>[] = [];
    const events: Record<string, unknown>[] = [];
    const cases: Record<string, unknown>[] = [];
    const terms: Record<string, unknown>[] = [];
    const outcomes: Record<string, unknown>[] = [];
    const evidence: Record<string, unknown>[] = [];
    for (let i = offset; i < Math.min(count, offset + batch); i += 1) {
      const uuidTrx = uuidFrom(random);
      const created = new Date(now.getTime() - Math.floor(random() * yearMs));
      // How far it went: 0 = opened only … 5 = every lifecycle step; then the video and the end for most of those.
      const reached = Math.min(journey.length, Math.floor(random() * 7));
      const finished = reached === journey.length && random() < 0.85;
      let at = created.getTime();
      let updated = at;
      for (let s = 0; s < reached; s += 1) {
        at += 5_000 + Math.floor(random() * 90_000);
        const step = journey[s]!;
        const id = uuidv7(at);
        const payload = { step, event: JSON.stringify({ status: 'OK', step, description: 'Paso completado' }), origin: 'celd' };
        events.push({
          id,
          uuid_trx: uuidTrx,
          grantor_id: demoId,
          step,
          status: lifecycleStatusOf(payload),
          payload_enc: cipher.encrypt(JSON.stringify(payload), lifecycleContext(uuidTrx, id)),
          received_at: new Date(at).toISOString(),
        });
        updated = at;
      }
      const name = `${givenNames[Math.floor(random() * givenNames.length)]} ${surnames[Math.floor(random() * surnames.length)]} ${surnames[Math.floor(random() * surnames.length)]}`;
      const curp = curpOf(random);

      if (finished) {
        at += 60_000 + Math.floor(random() * 60_000);
        evidence.push({
          id: uuidv7(at),
          uuid_trx: uuidTrx,
          grantor_id: demoId,
          kind: evidenceKind.videoToken,
          blob_key: null,
          sha256: null,
          payload_enc: null,
          created_at: new Date(at).toISOString(),
        });
        at += 10_000 + Math.floor(random() * 20_000);
        const id = uuidv7(at);
        const payload = { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Proceso concluido' }), origin: 'celd' };
        events.push({
          id,
          uuid_trx: uuidTrx,
          grantor_id: demoId,
          step: 'finished',
          status: 'OK',
          payload_enc: cipher.encrypt(JSON.stringify(payload), lifecycleContext(uuidTrx, id)),
          received_at: new Date(at).toISOString(),
        });
        outcomes.push({ uuid_trx: uuidTrx, status: 'OK', finished_at: new Date(at).toISOString() });
        updated = at;
      }
      const step = finished ? 'finished' : reached > 0 ? journey[reached - 1]! : null;
      trx.push({
        uuid_trx: uuidTrx,
        uuid_user: uuidFrom(random),
        grantor_id: demoId,
        current_step: step,
        lock_until: null,
        cancelled_at: null,
        created_at: created.toISOString(),
        updated_at: new Date(updated).toISOString(),
      });
      if (reached >= 3) {
        const flag = finished ? (['GREEN', 'GREEN', 'YELLOW', 'RED'] as const)[Math.floor(random() * 4)]! : null;
        const reviewed = finished && random() < 0.3;
        cases.push({
          uuid_trx: uuidTrx,
          grantor_id: demoId,
          holder_name_enc: cipher.encrypt(name, caseNameContext(uuidTrx)),
          flag,
          review_decision: reviewed ? 'approve' : null,
          review_reason: reviewed ? 'identity_confirmed' : null,
          updated_at: new Date(updated).toISOString(),
        });
        // Searched for: the CURP and a surname of a case half-way through (one whose terms are indexed).
        if (!searched.curp && i >= count / 2) searched = { surname: name.split(' ')[1]!, curp };
        terms.push({ grantor_id: demoId, kind: 'curp', term_hmac: blindTerm(cipher, demoId, 'curp', normaliseCurpTerm(curp)), uuid_trx: uuidTrx });
        for (const word of nameWords(name)) terms.push({ grantor_id: demoId, kind: 'name', term_hmac: blindTerm(cipher, demoId, 'name', word), uuid_trx: uuidTrx });
      }
    }
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('transactions')
        .values(trx as never)
        .execute();
      if (events.length)
        await tx
          .insertInto('lifecycle_events')
          .values(events as never)
          .execute();
      if (cases.length)
        await tx
          .insertInto('console_cases')
          .values(cases as never)
          .execute();
      if (terms.length)
        await tx
          .insertInto('console_search_terms')
          .values(terms as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
      if (outcomes.length)
        await tx
          .insertInto('transaction_outcomes')
          .values(outcomes as never)
          .execute();
      if (evidence.length)
        await tx
          .insertInto('evidence')
          .values(evidence as never)
          .execute();
    });
    rows += trx.length + events.length + cases.length + terms.length + outcomes.length + evidence.length;
  }
  const used = process.cpuUsage(cpu);
  return { ...searched, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, rows };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

interface Timing {
  p50: number;
  p95: number;
  cpuMs: number;
}

/** `n` sequential requests: wall-time p50/p95 and the process's mean CPU time per request. */
async function measure(n: number, run: () => Promise<void>): Promise<Timing> {
  for (let i = 0; i < 5; i += 1) await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), cpuMs: (used.user + used.system) / 1000 / n };
}

async function withPg<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function benchEngine(engine: 'sqlite' | 'postgres', databaseUrl: string | undefined): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kyc-bench-console-'));
  const schema = engine === 'postgres' ? `bench_console_${randomBytes(4).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'none'),
    CONSOLE_DIST: path.join(dataDir, 'none'),
    RATE_LIMITS: 'off',
    PROCESS_ROLE: 'api',
  };
  if (engine === 'postgres') {
    await withPg(databaseUrl!, (c) => c.query(`create schema ${schema}`));
    env.DATABASE_URL = databaseUrl!;
    env.DATA_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  }
  const config: Config = loadConfig(env);
  const database = config.database.kind === 'postgres' ? { ...config.database, searchPath: schema } : config.database;
  const db = createDatabase(database);
  try {
    await migrateToLatest(db);
    const app = await buildApp(config, { db });
    const cipher = createDataCipher(loadDataKey(config).key);
    const now = new Date();
    const data = await generate(db, cipher, cases, now);
    // The tables as autovacuum leaves them after a bulk load (statistics, visibility map), so that it does not run
    // during the measurements (one run measured right after the load without it had a first page p95 of 613 ms
    // where the run before had 65; autovacuum is the likely cause, not verified).
    if (engine === 'postgres') await sql`vacuum analyze`.execute(db);
    const userId = await consoleStore.insertUser(db, cipher, {
      grantorId: demoId,
      email: `bench-${engine}@demo.example`,
      role: 'viewer',
      passwordHash: await hashPassword(randomBytes(12).toString('hex')),
      totpSecret: null,
    });
    const session = await consoleStore.createSession(db, userId, 'active', { idleMs: 3_600_000, absoluteMs: 12 * 3_600_000 });
    const headers = { cookie: `kyc_console=${session}` };
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return res.json() as { cases?: unknown[]; nextCursor?: string | null; transactions?: number };
    };
    // A page deep in the list: follow the cursor 40 pages of 25 (the 1,001st case).
    let cursor: string | null | undefined;
    for (let i = 0; i < 40; i += 1) cursor = (await get(`/console/api/cases?limit=25${cursor ? `&cursor=${cursor}` : ''}`)).nextCursor;
    const year = now.toISOString().slice(0, 10);
    const monthAgo = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
    const yearAgo = new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
    // The first funnel request folds every transaction into the daily aggregate (features/console/funnel-aggregate.ts).
    const once = async (url: string) => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await get(url);
      const used = process.cpuUsage(cpu);
      return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
    };
    const backfill = await once(`/console/api/funnel?from=${yearAgo}&to=${year}`);
    const found = {
      first: (await get('/console/api/cases?limit=25')).cases?.length,
      yellow: (await get('/console/api/cases?limit=25&status=YELLOW')).cases?.length,
      surname: (await get(`/console/api/cases?limit=25&q=${encodeURIComponent(data.surname)}`)).cases?.length,
      curp: (await get(`/console/api/cases?limit=25&q=${data.curp}`)).cases?.length,
      funnelMonth: (await get(`/console/api/funnel?from=${monthAgo}&to=${year}`)).transactions,
      funnelYear: (await get(`/console/api/funnel?from=${yearAgo}&to=${year}`)).transactions,
    };
    const rows: [string, string, Timing][] = [];
    const list = async (label: string, url: string, n = runs) =>
      rows.push([
        label,
        url,
        await measure(n, async () => {
          await get(url);
        }),
      ]);
    await list(`first page (${found.first} rows)`, '/console/api/cases?limit=25');
    await list(`first page, status YELLOW (${found.yellow} rows)`, '/console/api/cases?limit=25&status=YELLOW');
    await list('first page, last 30 days', `/console/api/cases?limit=25&from=${monthAgo}&to=${year}`);
    await list(`search by surname (${found.surname} rows)`, `/console/api/cases?limit=25&q=${encodeURIComponent(data.surname)}`);
    await list(`search by CURP (${found.curp} row)`, `/console/api/cases?limit=25&q=${data.curp}`);
    await list('page 41 (keyset cursor)', `/console/api/cases?limit=25&cursor=${cursor}`);
    await list(`funnel, last 30 days (${found.funnelMonth} transactions)`, `/console/api/funnel?from=${monthAgo}&to=${year}`, Math.max(10, Math.floor(runs / 10)));
    await list(`funnel, last 365 days (${found.funnelYear} transactions)`, `/console/api/funnel?from=${yearAgo}&to=${year}`, Math.max(5, Math.floor(runs / 40)));
    // The flow keeps writing: 200 transactions get a lifecycle event through the service's writer (each marks its
    // transaction), then one year-long funnel request folds them.
    const recent = await db.selectFrom('transactions').select(['uuid_trx', 'created_at']).where('grantor_id', '=', demoId).orderBy('created_at', 'desc').limit(200).execute();
    for (const row of recent) {
      const payload = { step: 'inicio', event: JSON.stringify({ status: 'OK', step: 'inicio' }), origin: 'celd' };
      await insertLifecycleEvent(db, cipher, { uuidTrx: row.uuid_trx, grantorId: demoId, step: 'inicio', payload }, new Date(Date.parse(row.created_at) + 1000));
    }
    const fold200 = await once(`/console/api/funnel?from=${yearAgo}&to=${year}`);
    await app.close();
    const fmt = (v: number) => v.toFixed(1);
    return [
      `**${engine === 'sqlite' ? 'SQLite (better-sqlite3, WAL)' : 'PostgreSQL 15 (local, own schema)'}**: ${cases.toLocaleString('en')} transactions generated (${data.rows.toLocaleString('en')} rows) in ${data.seconds.toFixed(0)} s (${data.cpuSeconds.toFixed(0)} s CPU of this process)`,
      '',
      '| request (through the console API, Fastify inject, a signed-in viewer) | runs | p50 ms | p95 ms | CPU ms / request (this process) |',
      '| --- | --- | --- | --- | --- |',
      ...rows.map(
        ([label, , t]) =>
          `| ${label} | ${label.startsWith('funnel') ? (label.includes('365') ? Math.max(5, Math.floor(runs / 40)) : Math.max(10, Math.floor(runs / 10))) : runs} | ${fmt(t.p50)} | ${fmt(t.p95)} | ${fmt(t.cpuMs)} |`,
      ),
      '',
      `Year-long funnel, first request after the load (folds all ${cases.toLocaleString('en')} transactions into the daily aggregate): ${(backfill.ms / 1000).toFixed(1)} s wall, ${(backfill.cpuMs / 1000).toFixed(1)} s CPU of this process; after 200 transactions got a new event: ${fold200.ms.toFixed(0)} ms wall, ${fold200.cpuMs.toFixed(0)} ms CPU.`,
      '',
    ];
  } finally {
    await db.destroy().catch(() => undefined);
    if (schema && databaseUrl) await withPg(databaseUrl, (c) => c.query(`drop schema if exists ${schema} cascade`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The review console on 100,000 transactions (issue #16 target: the case list's first page p95 < 200 ms on SQLite and
 * on PostgreSQL). PostgreSQL runs when BENCH_DATABASE_URL (or DATABASE_URL) names a database; the suite creates and
 * drops its own schema there.
 */
export async function consoleList(): Promise<SuiteResult> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const load = os.loadavg().map((l) => l.toFixed(2));
  const lines = [`CPU: ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}; load average at start ${load.join(' / ')}; Node ${process.version}.`, ''];
  // BENCH_CONSOLE_ENGINES=sqlite or postgres runs one of them.
  const engines = (process.env.BENCH_CONSOLE_ENGINES ?? 'sqlite,postgres').split(',');
  if (engines.includes('sqlite')) lines.push(...(await benchEngine('sqlite', undefined)));
  if (databaseUrl && engines.includes('postgres')) lines.push(...(await benchEngine('postgres', databaseUrl)));
  else if (!databaseUrl) lines.push('PostgreSQL not measured: set BENCH_DATABASE_URL.', '');
  lines.push(
    `Load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}. Wall times include other processes' load; CPU ms is this process's user+system time per request (the database server's own CPU is not in it on PostgreSQL).`,
  );
  return { title: `Console: case list and funnel on ${cases.toLocaleString('en')} transactions`, lines };
}
