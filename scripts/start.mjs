#!/usr/bin/env node
// `npm start`: builds the product only when a source changed since the last successful build, then runs the
// server. `npm run serve` runs the built server without looking at the sources.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildState, stampPath } from './build-freshness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const state = buildState(root);
if (state !== 'fresh') {
  console.log(state === 'first' ? 'Building the product (first start)…' : 'Sources changed since the last build: rebuilding…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(path.join(root, stampPath), `${new Date().toISOString()}\n`);
} else {
  console.log('The build is up to date with the sources (npm run build forces one).');
}

// Two glibc malloc arenas: the engines' worker threads otherwise leave one each behind (README, Running in production).
const env = { MALLOC_ARENA_MAX: '2', ...process.env };
const server = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/main.js')], { cwd: root, stdio: 'inherit', env });
process.exit(server.status ?? (server.signal ? 1 : 0));
