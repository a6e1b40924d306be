/**
 * Every installed dependency must run on the oldest Node the project supports (the root package.json's engines):
 * a package that declares a newer Node (cookie@2, better-sqlite3@13 on Node 20) warns at install and may crash.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const workspaces = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[]; engines: { node: string } });

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: unknown };
}

/** name@version: range of every installed package whose engines.node excludes `oldest`. */
function incompatible(nodeModules: string, oldest: string, found: string[] = []): string[] {
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(nodeModules, entry);
    if (entry.startsWith('@')) {
      incompatible(dir, oldest, found);
      continue;
    }
    const manifestFile = path.join(dir, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    const range = manifest.engines?.node;
    if (typeof range === 'string' && semver.validRange(range) && !semver.satisfies(oldest, range)) {
      found.push(`${manifest.name}@${manifest.version}: node ${range}`);
    }
    incompatible(path.join(dir, 'node_modules'), oldest, found);
  }
  return found;
}

describe('dependency engines', () => {
  it('every installed package supports the oldest Node of the root engines', () => {
    const oldest = semver.minVersion(workspaces.engines.node)!.version;
    const found = incompatible(path.join(root, 'node_modules'), oldest);
    for (const workspace of workspaces.workspaces) incompatible(path.join(root, workspace, 'node_modules'), oldest, found);
    expect(found).toEqual([]);
  });
});
