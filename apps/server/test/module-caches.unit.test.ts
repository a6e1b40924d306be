import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue #14 item 5: every cache of the service lives in the app's cache object (src/caches.ts, AppCaches, reached as
// deps.caches) and is emptied explicitly, never in a module-level map that outlives the app, is shared by two apps of
// one process (tests, SQLite and PostgreSQL) and that no write can reach. Parsed with the TypeScript compiler, as
// scripts/function-lengths.mjs does.
const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Where a cache may live: the cache object itself. */
const cacheHome = 'caches.ts';

/**
 * Module-level state that is process-wide by nature, not a cache of any database's data: constant tables (built once
 * from literals, never written) and a few per-process counters. `file: name` and why. The test also fails when an
 * allowed collection is written in its file (.set/.add/.delete/.clear) or when an entry no longer exists. A collection
 * declared ReadonlyMap/ReadonlySet needs no entry: the compiler forbids writes.
 */
const processWide: Record<string, string> = {
  'engines/ocr/mrz-parse.ts: SELF_NATIONAL': 'the nationalities read as the issuing country itself, a literal list',
  'engines/ocr/fields/ine-anchored.ts: SHORT': 'the INE labels whose values are short, a literal list',
  'engines/ocr/fields/text.ts: PARTICLES': 'Spanish name particles, a literal list',
  'engines/ocr/fields/passport.ts: LABEL_WORDS': 'the printed label words of a passport page, a literal list',
  'http/openapi-enrich.ts: operationIds': "each call's operation id, built once from the contracts' constant table",
  'http/paths.ts: serviceExact': "the service's own path prefixes, a literal list",
  'logger.ts: sensitive': 'the field names redacted from logs, from a constant list',
  'features/events/consent-acceptance.ts: consents': 'the consent steps, a literal list',
  'features/events/lifecycle.ts: knownStatuses': 'the lifecycle statuses of docs/flow.md, a literal list',
  'features/results/score.ts: mrzDocuments': 'the documents with an MRZ, a literal list',
  'features/results/score.ts: backlessDocuments': 'the documents without a back, a literal list',
  'features/proof/proof-reading.ts: PARTICLES': 'Spanish name particles, a literal list',
  'features/face-video/container.ts: webmVideo': 'accepted codecs, a literal list',
  'features/face-video/container.ts: webmAudio': 'accepted codecs, a literal list',
  'features/face-video/container.ts: mp4Video': 'accepted codecs, a literal list',
  'features/face-video/container.ts: mp4Audio': 'accepted codecs, a literal list',
  'features/webhooks/cli.ts: loopback': 'the loopback host names, a literal list',
  'domain/grantor-params.ts: flagValues': 'the spellings of a yes/no parameter, a literal list',
  'uploads/sniff.ts: avifBrands': 'ISO-BMFF brands, a literal list',
  'uploads/sniff.ts: heicBrands': 'ISO-BMFF brands, a literal list',
  'uploads/sniff.ts: audioBrands': 'ISO-BMFF brands, a literal list',
  'uploads/sniff.ts: mp4Brands': 'ISO-BMFF brands, a literal list',
  'store/ids.ts: lastMs': 'the UUIDv7 clock: ids must increase across every app of the process',
  'store/ids.ts: sequence': 'the UUIDv7 counter within a millisecond, as lastMs',
  'engines/speech/child.ts: recognizer': "the speech child process's own recogniser (that file is the child's entry point)",
  'engines/speech/child.ts: queue': "the speech child process's queue of requests, as recognizer",
  'features/console/case-media-routes.ts: decoding': 'ffmpeg decodes running in this process, bounded per process (a limit, not a cache)',
  'features/console/passwords.ts: decoy': 'a hash of a random password for unknown e-mails: no data of any database',
};

const collections = new Set(['Map', 'WeakMap', 'Set', 'WeakSet', 'WeakRef']);
const readonlyTypes = new Set(['ReadonlyMap', 'ReadonlySet']);
const writes = new Set(['set', 'add', 'delete', 'clear']);

export interface ModuleState {
  file: string;
  name: string;
  line: number;
  what: string;
}

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isNonNullExpression(current)) {
    current = current.expression;
  }
  return current;
}

/** What a module-level initializer keeps, if it is a collection or a cache: `new Map`, `new SomethingCache`... */
function keptState(initializer: ts.Expression | undefined): string | undefined {
  if (!initializer) return undefined;
  const value = unwrap(initializer);
  if (!ts.isNewExpression(value)) return undefined;
  const made = value.expression.getText();
  if (collections.has(made) || /(cache|lru)$/i.test(made)) return `new ${made}`;
  return undefined;
}

function declaredReadonly(declaration: ts.VariableDeclaration | ts.PropertyDeclaration): boolean {
  const type = declaration.type;
  return type !== undefined && ts.isTypeReferenceNode(type) && readonlyTypes.has(type.typeName.getText());
}

/** The module-level state of one file: `let`/`var` bindings, and collections or caches in constants and static fields. */
export function moduleState(file: string, text: string): ModuleState[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ModuleState[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const mutable = (statement.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(source);
        const kept = keptState(declaration.initializer);
        if (mutable) found.push({ file, name, line: at(declaration), what: 'a module-level let/var' });
        else if (kept && !declaredReadonly(declaration)) found.push({ file, name, line: at(declaration), what: kept });
      }
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || !ts.isPropertyDeclaration(member)) continue;
        const kept = keptState(member.initializer);
        if (kept && !declaredReadonly(member)) found.push({ file, name: `${statement.name?.getText(source)}.${member.name.getText(source)}`, line: at(member), what: kept });
      }
    }
  }
  return found;
}

/** Whether the file calls a writing method (.set/.add/.delete/.clear) on `name`. */
function writtenIn(text: string, name: string): boolean {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let written = false;
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      writes.has(node.expression.name.text) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === name
    ) {
      written = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return written;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('no module-level caches in apps/server/src (issue #14 item 5)', () => {
  const files = sourceFiles(src).map((full) => ({ file: path.relative(src, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') }));

  it('keeps every cache in the app cache object: nothing but constant tables at module level', () => {
    expect(files.length).toBeGreaterThan(200);
    const found = files.filter((f) => f.file !== cacheHome).flatMap((f) => moduleState(f.file, f.text));
    const unexplained = found.filter((s) => !(`${s.file}: ${s.name}` in processWide)).map((s) => `${s.file}:${s.line} ${s.name} (${s.what})`);
    expect(unexplained).toEqual([]);
  }, 60_000);

  it('the process-wide state allowed still exists, and its collections are never written', () => {
    for (const [key, reason] of Object.entries(processWide)) {
      const [file, name] = key.split(': ') as [string, string];
      const text = files.find((f) => f.file === file)?.text;
      expect(text, `${key} (${reason}): file not found`).toBeDefined();
      const state = moduleState(file, text!).find((s) => s.name === name);
      expect(state, `${key}: no longer module-level state, remove it from the list`).toBeDefined();
      if (state!.what.startsWith('new ')) expect(writtenIn(text!, name), `${key}: written in its file, so it is state, not a constant table`).toBe(false);
    }
  }, 60_000);

  it('finds the kinds of module state it forbids', () => {
    const planted = [
      'const byDb = new WeakMap<object, Map<string, string>>();',
      'let generation = 0;',
      'export const grantors = new ReadCache<string>(5_000);',
      'const seen = new Set<string>() as Set<string>;',
      'class Registry { static readonly open = new Map<string, number>(); }',
      'const table: ReadonlySet<string> = new Set(["a"]);',
      'const fixed = Object.freeze({ a: 1 });',
      'function f() { const local = new Map(); return local; }',
    ].join('\n');
    expect(moduleState('planted.ts', planted).map((s) => `${s.name} ${s.what}`)).toEqual([
      'byDb new WeakMap',
      'generation a module-level let/var',
      'grantors new ReadCache',
      'seen new Set',
      'Registry.open new Map',
    ]);
    expect(writtenIn('const t = new Set(); t.add(1);', 't')).toBe(true);
    expect(writtenIn('const t = new Set([1]); t.has(1);', 't')).toBe(false);
  });
});
