import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The server's layering (docs/architecture.md): features build on the shared layers, never the reverse, and
// only the composition root (app.ts, main.ts, migrations.ts, config.ts, seed.ts, cli/) knows every feature.
const src = fileURLToPath(new URL('../src/', import.meta.url));
const sharedLayers = ['attempts', 'store', 'http', 'uploads', 'jobs', 'mail', 'crypto', 'blob', 'engines', 'domain', 'secret-keys', 'metrics'];
const compositionRoot = ['app.ts', 'main.ts', 'migrations.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import|module)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return found.map((spec) =>
    path
      .relative(src, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/'),
  );
}

const files = sourceFiles(src).map((file) => ({ file: path.relative(src, file).split(path.sep).join('/'), imports: relativeImports(file) }));

describe('server layering', () => {
  it('finds the sources it checks', () => {
    expect(files.filter((f) => f.file.startsWith('features/')).length).toBeGreaterThan(50);
  });

  it('no shared layer imports a feature', () => {
    const offending = files
      .filter((f) => sharedLayers.includes(f.file.split('/')[0]!))
      .flatMap((f) => f.imports.filter((target) => target.startsWith('features/')).map((target) => `${f.file} -> ${target}`));
    expect(offending).toEqual([]);
  });

  it('no feature imports the composition root', () => {
    const offending = files
      .filter((f) => f.file.startsWith('features/'))
      .flatMap((f) => f.imports.filter((target) => compositionRoot.some((root) => target === root.replace(/\.ts$/, '.js'))).map((target) => `${f.file} -> ${target}`));
    expect(offending).toEqual([]);
  });

  it('shared layers do not reach into a feature through the composition root', () => {
    const offending = files
      .filter((f) => sharedLayers.includes(f.file.split('/')[0]!))
      .flatMap((f) => f.imports.filter((target) => compositionRoot.some((root) => target === root.replace(/\.ts$/, '.js'))).map((target) => `${f.file} -> ${target}`));
    expect(offending).toEqual([]);
  });

  // Issue #14: services and rules return reasons (domain/refusal.ts); only the HTTP layer knows statuses
  // (http/reasons.ts maps every reason). Transport modules may import http/: route modules, the feature list, the
  // routes' journey-order guard (it authorizes the headers), the console routes' session kit (cookies, CSRF) and
  // the real-time data channel, which answers its messages with the same statuses.
  const transport = [
    /(^|\/|-)routes\.ts$/,
    /^features\/index\.ts$/,
    /^features\/console\/kit\.ts$/,
    /^features\/events\/journey-order\.ts$/,
    /^features\/realtime\/(session|registry|handlers|video-token-handler)\.ts$/,
  ];
  const serviceLayers = ['domain', 'attempts', 'store', 'uploads', 'engines', 'crypto', 'blob', 'jobs', 'mail', 'secret-keys'];

  it('no rule, service or lower layer imports the HTTP layer', () => {
    const offending = files
      .filter((f) => serviceLayers.includes(f.file.split('/')[0]!) || (f.file.startsWith('features/') && !transport.some((pattern) => pattern.test(f.file))))
      .flatMap((f) => f.imports.filter((target) => target.startsWith('http/')).map((target) => `${f.file} -> ${target}`));
    expect(offending).toEqual([]);
  });

  it('the transport allow-list names files that exist', () => {
    for (const pattern of transport.slice(1))
      expect(
        files.some((f) => pattern.test(f.file)),
        String(pattern),
      ).toBe(true);
  });
});
