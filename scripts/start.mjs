#!/usr/bin/env node
// `npm start`: builds the product only when a source changed since the last successful build, then runs the
// server. `npm run serve` runs the built server without looking at the sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const stamp = path.join(root, 'apps/server/dist/.build-stamp');

// Everything the build reads: sources, build configuration and the installed dependencies.
const inputs = [
  'package-lock.json', 'tsconfig.base.json',
  'packages/contracts/src', 'packages/contracts/package.json', 'packages/contracts/tsconfig.json',
  'packages/launcher/src', 'packages/launcher/build.mjs', 'packages/launcher/package.json',
  'apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', 'apps/web/tsconfig.json',
  'apps/server/src', 'apps/server/package.json', 'apps/server/tsconfig.json',
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...inputs.map((input) => newestChange(path.join(root, input))));
if (changedAt > builtAt) {
  console.log(builtAt === 0 ? 'Building the product (first start)…' : 'Sources changed since the last build: rebuilding…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  console.log('The build is up to date with the sources (npm run build forces one).');
}

const server = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/main.js')], { cwd: root, stdio: 'inherit' });
process.exit(server.status ?? (server.signal ? 1 : 0));
