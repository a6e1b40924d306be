#!/usr/bin/env node
// `npm test`: installs what the tests need, builds the product, runs every suite (unit, API on SQLite and,
// when DATABASE_URL is set, PostgreSQL, browser journeys) in one vitest run, and prints "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTools } from './ensure-tools.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });

if (!ensureTools()) process.exit(1);

// The linter and the formatter check (Biome's ci, biome.json) first: a finding fails the run but the suites still run.
const lint = run('npm', ['run', 'lint']);
if (lint.status !== 0) console.error('The lint check failed (npm run lint); the suites run anyway.');

const build = run('npm', ['run', 'build']);
if (build.status !== 0) {
  console.error('The build failed; no test ran.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const reportDir = mkdtempSync(path.join(tmpdir(), 'kyc-test-'));
const report = path.join(reportDir, 'vitest.json');
const vitest = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);

let passed = 0;
let failed = 0;
try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
  if (!summary.success && failed === 0) failed = 1;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(reportDir, { recursive: true, force: true });
if (lint.status !== 0) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
