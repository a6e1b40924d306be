/**
 * Every installed dependency must run on the oldest Node the project supports (the root package.json's engines):
 * a package that declares a newer Node (cookie@2, better-sqlite3@13 on Node 20) warns at install and may crash.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { incompatibleEngines, workspaceEngineReport } from '../../../scripts/dependency-engines.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('dependency engines', () => {
  it('every installed package supports the oldest Node of the root engines', () => {
    const { oldest, found } = workspaceEngineReport(root);
    expect(oldest).toBe('20.19.0');
    expect(found).toEqual([]);
  });

  it('one Node engine across the workspaces and the README', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string }; workspaces: string[] };
    for (const workspace of manifest.workspaces) {
      const own = (JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
      if (own !== undefined) expect(own, workspace).toBe(manifest.engines.node);
    }
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`Node ${manifest.engines.node.replace('>=', '')}+`);
  });

  describe('the check itself', () => {
    const nodeModules = mkdtempSync(path.join(tmpdir(), 'engines-'));
    const install = (dir: string, manifest: object) => {
      mkdirSync(path.join(nodeModules, dir), { recursive: true });
      writeFileSync(path.join(nodeModules, dir, 'package.json'), JSON.stringify(manifest));
    };
    install('fine', { name: 'fine', version: '1.0.0', engines: { node: '>=18' } });
    install('any', { name: 'any', version: '1.0.0' });
    install('cookie', { name: 'cookie', version: '2.0.2', engines: { node: '>=22' } });
    install('@scope/old-only', { name: '@scope/old-only', version: '3.1.0', engines: { node: '18.x' } });
    install('fine/node_modules/nested', { name: 'nested', version: '0.1.0', engines: { node: '^22.12.0 || >=24' } });
    afterAll(() => rmSync(nodeModules, { recursive: true, force: true }));

    it('names each package, scoped or nested, whose engine excludes the oldest Node, and only those', () => {
      expect(incompatibleEngines(nodeModules, '20.19.0').sort()).toEqual(['@scope/old-only@3.1.0: node 18.x', 'cookie@2.0.2: node >=22', 'nested@0.1.0: node ^22.12.0 || >=24'].sort());
      expect(incompatibleEngines(nodeModules, '22.12.0')).toEqual(['@scope/old-only@3.1.0: node 18.x']);
    });
  });
});
