/**
 * The launcher as integrators install it: the tarball `npm pack -w packages/launcher` makes holds the ES module, the
 * script-tag build and one declaration file, all of one version, and a TypeScript integration compiles against it
 * with the typed onComplete / onError / onUserExit callbacks. Reads the launcher's build (`npm run build` makes it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const launcherDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/launcher');

const integration = `
import { createLauncher, type CompleteResult, type FlowError, type UserExit } from '@kyc/launcher';

export const saved: string[] = [];
createLauncher({
  key: 'demo',
  container: '#kyc',
  urls: { prod: 'https://kyc.example' },
  onComplete: (result: CompleteResult) => saved.push(result.transactionId, result.result),
  onError: (error: FlowError) => saved.push(error.kind, error.text),
  onUserExit: (exit: UserExit) => {
    // @ts-expect-error a person leaves by cancelling or closing, nothing else: the types say so
    if (exit.reason === 'timeout') saved.push('never');
    saved.push(exit.reason);
  },
});
`;

describe('the launcher package', () => {
  let scratch: string;
  let installed: string;
  let manifest: { name: string; version: string; types: string; exports: Record<string, string | Record<string, string>> };

  beforeAll(() => {
    expect(existsSync(path.join(launcherDir, 'dist/launcher.mjs')), 'build the launcher first: npm run build -w packages/launcher').toBe(true);
    scratch = mkdtempSync(path.join(tmpdir(), 'launcher-package-'));
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: launcherDir, encoding: 'utf8' })) as Array<{ filename: string }>;
    installed = path.join(scratch, 'node_modules/@kyc/launcher');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(scratch, packed!.filename), '-C', installed, '--strip-components=1']);
    manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as typeof manifest;
  }, 60_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('ships every file its exports name (but the workspace-only source condition) and its types', () => {
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string'
        ? [target]
        : Object.entries(target)
            .filter(([condition]) => condition !== 'source')
            .map(([, file]) => file),
    );
    expect(targets.length).toBeGreaterThanOrEqual(3);
    for (const file of [...targets, manifest.types]) expect(existsSync(path.join(installed, file)), file).toBe(true);
    expect(readFileSync(path.join(installed, manifest.types), 'utf8')).not.toMatch(/from ['"]@kyc\//);
  });

  it('is one version in the manifest, the ES module and the script-tag build', async () => {
    const esm = (await import(pathToFileURL(path.join(installed, 'dist/launcher.mjs')).href)) as { version: string; createLauncher: unknown };
    expect(esm.version).toBe(manifest.version);
    expect(typeof esm.createLauncher).toBe('function');
    const window: { KycLauncher?: { version: string; create: unknown } } = {};
    vm.runInNewContext(readFileSync(path.join(installed, 'dist/launcher.js'), 'utf8'), { window, document: { currentScript: null } });
    expect(window.KycLauncher?.version).toBe(manifest.version);
    expect(typeof window.KycLauncher?.create).toBe('function');
  });

  it('types an integration with onComplete, onError and onUserExit', () => {
    const file = path.join(scratch, 'integration.ts');
    writeFileSync(file, integration);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
