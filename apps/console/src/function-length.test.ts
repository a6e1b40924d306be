import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Issue #14's target for apps/: no function over 120 lines (a long one does several jobs; split it into named parts). */
const maxLines = 120;
const root = path.dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every function (declarations, expressions, arrows, methods) longer than the limit, as file:line and length. */
function longFunctions(file: string, text: string, limit: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > limit) found.push(`${path.relative(root, file)}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length in apps/console', () => {
  it('finds a function over the limit (the check can fail)', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const found = longFunctions(path.join(root, 'x.ts'), `function long() {\n${body}\n}\nconst short = () => 1;\n`, 6);
    expect(found).toEqual(['x.ts:1 (7 lines)']);
  });

  it(`no function of the console is over ${maxLines} lines`, () => {
    const found = sources(root).flatMap((file) => longFunctions(file, readFileSync(file, 'utf8'), maxLines));
    expect(found).toEqual([]);
  });
});
