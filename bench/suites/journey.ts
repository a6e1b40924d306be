import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import type { SuiteResult } from '../run.js';
import { repoRoot } from './server-process.js';

/**
 * The whole journey (issue #6): the GREEN browser journey of e2e/journeys/whole-journey.e2e.ts (headless Chromium,
 * fake camera and microphone, the built server: npm run build first) run once, with the server's request log kept.
 * The machine time is what the server spends handling the journey's calls (pino's responseTime per request); the
 * journey's wall time also holds the waits the spec mandates (positioning, photo delay, stability, one digit per
 * second, the e-mail follow-up) and the browser's own work.
 */

interface LogLine {
  time: number;
  reqId?: string;
  msg?: string;
  req?: { method: string; url: string; route?: string };
  responseTime?: number;
  res?: { statusCode: number };
}

function runJourney(logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', 'e2e/journeys/whole-journey.e2e.ts', '-t', 'GREEN: entry'], {
      cwd: repoRoot,
      env: { ...process.env, KYC_JOURNEY_SERVER_LOG: logFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the journey test failed (${code})`))));
  });
}

const ms = (value: number) => value.toFixed(0);

export async function wholeJourney(): Promise<SuiteResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kyc-bench-journey-'));
  const logFile = path.join(dir, 'server.log');
  try {
    await runJourney(logFile);
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
    const routes = new Map<string, string>();
    for (const line of lines) if (line.msg === 'incoming request' && line.reqId && line.req) routes.set(line.reqId, `${line.req.method} ${line.req.route ?? line.req.url}`);
    const done = lines.filter((line) => line.msg === 'request completed' && line.reqId && typeof line.responseTime === 'number');
    const api = done.filter((line) => /^\w+ \/v\d\//.test(routes.get(line.reqId!) ?? ''));
    const staticFiles = done.filter((line) => !api.includes(line));
    const byRoute = new Map<string, { count: number; total: number; max: number }>();
    for (const line of api) {
      const route = routes.get(line.reqId!)!;
      const entry = byRoute.get(route) ?? { count: 0, total: 0, max: 0 };
      entry.count += 1;
      entry.total += line.responseTime!;
      entry.max = Math.max(entry.max, line.responseTime!);
      byRoute.set(route, entry);
    }
    const apiTotal = api.reduce((sum, line) => sum + line.responseTime!, 0);
    const staticTotal = staticFiles.reduce((sum, line) => sum + line.responseTime!, 0);
    const wall = api.length > 0 ? api.at(-1)!.time - done[0]!.time : 0;
    const rows = [...byRoute.entries()].sort((a, b) => b[1].total - a[1].total);
    return {
      title: 'Whole journey (GREEN, phone, headless Chromium with fake camera and microphone, built server on SQLite) — server handling time per call',
      lines: [
        `Journey wall time (first to last request): **${(wall / 1000).toFixed(1)} s**, of which the server handled its ${api.length} API calls in **${(apiTotal / 1000).toFixed(2)} s** (sum of responseTime) and ${staticFiles.length} page/asset requests in ${ms(staticTotal)} ms.`,
        `Load average during the run: ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(
            ' / ',
          )} (2 shared cores). The calls include the test's own checks (one query_score, the events list); the e-mail job (report PDF, .eml) runs after its call returns, in the job worker, and is not counted.`,
        "The rest is the waits the spec mandates (face video: 7 s positioning, 1 s photo delay, 5 s stability, the digits one per second; 500 ms e-mail follow-up; the flow's transition delays), the browser's work (capture, crop, recording) and the test's typing.",
        '',
        '| call | count | total ms | max ms |',
        '|---|---|---|---|',
        ...rows.map(([route, entry]) => `| ${route} | ${entry.count} | ${ms(entry.total)} | ${ms(entry.max)} |`),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
