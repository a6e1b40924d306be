import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue #14 targets: route handlers of at most 30 lines, no function over 120 lines in the service
// (scripts/function-lengths.mjs, the TypeScript compiler's parser). The script runs as CI would run it.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = 'scripts/function-lengths.mjs';

// Nothing is exempt (the console's routes were split by area in session 9).
const allowed: string[] = [];

interface Finding {
  kind: 'function' | 'handler';
  file: string;
  name: string;
  line: number;
  lines: number;
}

interface Measured {
  files: number;
  handlers: number;
  findings: Finding[];
  listed: Finding[];
}

function run(args: string[]): { status: number | null; measured: Measured } {
  const result = spawnSync(process.execPath, [script, '--json', ...args], { cwd: root, encoding: 'utf8' });
  if (result.stderr) throw new Error(result.stderr);
  return { status: result.status, measured: JSON.parse(result.stdout) as Measured };
}

// Parsing every source file takes a few seconds of one core: far more on a loaded CI machine than the default 5 s.
describe('function lengths in apps/server', { timeout: 60_000 }, () => {
  it('no function over 120 lines and no route handler over 30 lines', () => {
    const { status, measured } = run([...allowed.map((prefix) => `--allow=${prefix}`), 'apps/server/src']);
    expect(measured.files).toBeGreaterThan(200);
    expect(measured.handlers).toBeGreaterThan(40);
    expect(measured.listed.map((f) => `${f.file}:${f.line} ${f.kind} ${f.name} (${f.lines} lines)`)).toEqual([]);
    expect(status).toBe(0);
  });

  it('finds a long function and a long inline or named handler (the check can fail)', async () => {
    const { measureSource } = (await import(`${root}${script}`)) as { measureSource: (file: string, text: string) => { findings: Finding[]; handlers: number } };
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function long() {\n${body(119)}\n}`,
      `export function fits() {\n${body(118)}\n}`,
      `app.route({ method: 'GET', url: '/a', handler: async () => {\n${body(29)}\n} });`,
      `app.post('/b', {}, async () => {\n${body(28)}\n});`,
      `async function named() {\n${body(29)}\n}\napp.route({ method: 'GET', url: '/c', handler: named });`,
    ].join('\n');
    const { findings, handlers } = measureSource('sample.ts', text);
    expect(handlers).toBe(3);
    expect(findings.map((f) => `${f.kind} ${f.name} ${f.lines}`)).toEqual(['function long 121', 'handler app.route handler 31', 'handler app.route handler 31']);
  });
});
