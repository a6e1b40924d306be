// Installed packages whose declared Node engine excludes the oldest Node the project supports (the root
// package.json's engines): such a package warns at install and may crash on that Node (cookie@2,
// better-sqlite3@13 on Node 20). The unit test dependency-engines runs this over node_modules in CI.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/** `name@version: node <range>` of every package under `nodeModules` (nested ones too) that excludes `oldest`. */
export function incompatibleEngines(nodeModules, oldest, found = []) {
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(nodeModules, entry);
    if (entry.startsWith('@')) {
      incompatibleEngines(dir, oldest, found);
      continue;
    }
    const manifestFile = path.join(dir, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const range = manifest.engines?.node;
    if (typeof range === 'string' && semver.validRange(range) && !semver.satisfies(oldest, range)) {
      found.push(`${manifest.name}@${manifest.version}: node ${range}`);
    }
    incompatibleEngines(path.join(dir, 'node_modules'), oldest, found);
  }
  return found;
}

/** The oldest Node of the root engines, and the incompatible packages of the root and of every workspace. */
export function workspaceEngineReport(root) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const oldest = semver.minVersion(manifest.engines.node).version;
  const found = incompatibleEngines(path.join(root, 'node_modules'), oldest);
  for (const workspace of manifest.workspaces) incompatibleEngines(path.join(root, workspace, 'node_modules'), oldest, found);
  return { oldest, found };
}
