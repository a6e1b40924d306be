// Whether `npm start` must build: the newest change among everything `npm run build` reads, against the stamp the
// last successful build left. The workspaces are the ones the root build script names, so a workspace added to
// the build (the console was once missed) is watched without editing a list here.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const stampPath = 'apps/server/dist/.build-stamp';

/** Workspaces built by the root `build` script (`npm run build -w <workspace>`), in order. */
export function builtWorkspaces(root) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return [...(manifest.scripts?.build ?? '').matchAll(/-w\s+(\S+)/g)].map((match) => match[1]);
}

// Installed packages, build output and tests: none of them changes what the build produces from the sources.
const notRead = new Set(['node_modules', 'dist', 'test']);

/** Everything the build reads: the lock file, the shared configuration and each built workspace but its output. */
export function buildInputs(root) {
  const inputs = ['package-lock.json', 'tsconfig.base.json'];
  for (const workspace of builtWorkspaces(root)) {
    const dir = path.join(root, workspace);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) {
      if (notRead.has(entry) || entry.startsWith('.') || entry.endsWith('.tsbuildinfo')) continue;
      inputs.push(path.join(workspace, entry));
    }
  }
  return inputs;
}

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

/** 'first' when nothing was built yet, 'changed' when an input is newer than the last build, else 'fresh'. */
export function buildState(root) {
  const stamp = path.join(root, stampPath);
  if (!existsSync(stamp)) return 'first';
  const builtAt = statSync(stamp).mtimeMs;
  const changedAt = Math.max(...buildInputs(root).map((input) => newestChange(path.join(root, input))));
  return changedAt > builtAt ? 'changed' : 'fresh';
}
