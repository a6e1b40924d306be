import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue #14's target for apps/: no function over 120 lines. The console is measured by the same parser-based script
// as the service (scripts/function-lengths.mjs); its route-handler rule finds nothing here (no server routes).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = 'scripts/function-lengths.mjs';

interface Finding {
  kind: 'function' | 'handler';
  file: string;
  name: string;
  line: number;
  lines: number;
}
interface Measure {
  measureSource(file: string, text: string): { findings: Finding[] };
  measureFolders(folders: string[], root: string): { files: number; findings: Finding[] };
}
const measure = async () => (await import(`${root}${script}`)) as Measure;

describe('function length in apps/console', () => {
  it('finds a component over the limit (the check can fail)', async () => {
    const { measureSource } = await measure();
    const body = Array.from({ length: 119 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const { findings } = measureSource('x.tsx', `export function Long() {\n${body}\n  return <p />;\n}\nconst Short = () => <p />;\n`);
    expect(findings.map((f) => `${f.name} (${f.lines} lines)`)).toEqual(['Long (122 lines)']);
  });

  it('no function of the console is over 120 lines', async () => {
    const { measureFolders } = await measure();
    const { files, findings } = measureFolders(['apps/console/src'], root);
    expect(files).toBeGreaterThan(20);
    // Test files are measured too: a test longer than the limit is split like any function.
    expect(findings.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });
});
