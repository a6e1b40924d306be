/** `npm start` builds only when something the build reads changed since the last build (scripts/build-freshness.mjs). */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputs, buildState, stampPath } from '../../../scripts/build-freshness.mjs';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('start: is the build fresh', () => {
  let root: string;
  const at = (file: string, seconds: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'x');
    utimesSync(path.join(root, file), seconds, seconds);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'start-build-'));
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { build: 'npm run build -w packages/a && npm run build -w apps/b' } }));
    utimesSync(path.join(root, 'package.json'), 1_000, 1_000);
    at('packages/a/src/index.ts', 1_000);
    at('apps/b/src/main.ts', 1_000);
    at('apps/b/vite.config.ts', 1_000);
    for (const dir of ['packages/a/src', 'apps/b/src', 'packages/a', 'apps/b', 'packages', 'apps']) utimesSync(path.join(root, dir), 1_000, 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds on the first start, then only after a change in a workspace the build script names', () => {
    expect(buildState(root)).toBe('first');
    at(stampPath, 2_000);
    expect(buildState(root)).toBe('fresh');
    at('apps/b/vite.config.ts', 3_000);
    expect(buildState(root)).toBe('changed');
    at(stampPath, 4_000);
    at('apps/b/src/screens/new.tsx', 5_000);
    expect(buildState(root)).toBe('changed');
  });

  it('ignores tests, build output, installed packages and workspaces the build does not name', () => {
    at(stampPath, 2_000);
    at('apps/b/test/x.test.ts', 3_000);
    at('apps/b/dist/main.js', 3_000);
    at('apps/b/node_modules/dep/index.js', 3_000);
    at('e2e/journeys/x.e2e.ts', 3_000);
    for (const dir of ['apps/b', 'apps']) utimesSync(path.join(root, dir), 1_000, 1_000);
    expect(buildState(root)).toBe('fresh');
  });

  it("watches every workspace of this repository's build, the console included", () => {
    const inputs = buildInputs(repository) as string[];
    for (const source of ['packages/contracts/src', 'packages/launcher/src', 'apps/web/src', 'apps/console/src', 'apps/console/vite.config.ts', 'apps/server/src']) {
      expect(inputs).toContain(source);
    }
  });
});
