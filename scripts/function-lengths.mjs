#!/usr/bin/env node
// Lists the functions longer than 120 lines and the Fastify route handlers longer than 30 lines under the given
// folders (default apps/server/src), using the TypeScript compiler's parser. A function's length counts its first to
// its last line, nested functions included. A route handler is the `handler` property of an object passed to
// `<app>.route({...})`, or the last function argument of `<app>.get|post|put|patch|delete|head|options|all(...)`.
// Exit status 1 when anything is listed (outside the allow-list given with --allow=<path prefix>, repeatable).
// `node scripts/function-lengths.mjs [--json] [--allow=prefix]... [folder...]`
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const limits = { function: 120, handler: 30 };
const routeMethods = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function lineSpan(sourceFile, node) {
  const first = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
  const last = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { line: first + 1, lines: last - first + 1 };
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would look for: the declaration's, the variable's or property's it is assigned to, else `(anonymous)`. */
function functionName(node) {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

/** A function named in the same file (a handler passed by name), else undefined. */
function declaredFunction(sourceFile, name) {
  let found;
  const visit = (node) => {
    if (found) return;
    if (ts.isFunctionDeclaration(node) && node.name?.text === name) found = node;
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer && isFunctionLike(node.initializer)) found = node.initializer;
    else ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function asFunction(sourceFile, node) {
  if (isFunctionLike(node)) return node;
  return ts.isIdentifier(node) ? declaredFunction(sourceFile, node.text) : undefined;
}

/** The route handlers of a call `x.route({ handler })` or `x.get(path, [options,] handler)` (inline or named in the file). */
function routeHandlers(sourceFile, call) {
  if (!ts.isPropertyAccessExpression(call.expression)) return [];
  const method = call.expression.name.text;
  if (method === 'route') {
    const options = call.arguments[0];
    if (!options || !ts.isObjectLiteralExpression(options)) return [];
    return options.properties.flatMap((property) => {
      if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === 'handler') {
        const handler = asFunction(sourceFile, property.initializer);
        return handler ? [handler] : [];
      }
      if (ts.isShorthandPropertyAssignment(property) && property.name.text === 'handler') {
        const handler = declaredFunction(sourceFile, 'handler');
        return handler ? [handler] : [];
      }
      if (ts.isMethodDeclaration(property) && ts.isIdentifier(property.name) && property.name.text === 'handler') return [property];
      return [];
    });
  }
  if (!routeMethods.has(method) || call.arguments.length < 2) return [];
  const last = call.arguments[call.arguments.length - 1];
  const handler = last && asFunction(sourceFile, last);
  return handler ? [handler] : [];
}

/** Every function over `limits.function` lines and every route handler over `limits.handler` lines in one file's text. */
export function measureSource(fileName, text) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const findings = [];
  const handlers = new Set();
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      for (const handler of routeHandlers(sourceFile, node)) {
        handlers.add(handler);
        const span = lineSpan(sourceFile, handler);
        if (span.lines > limits.handler) findings.push({ kind: 'handler', file: fileName, name: `${node.expression.getText(sourceFile)} handler`, ...span });
      }
    }
    if (isFunctionLike(node)) {
      const span = lineSpan(sourceFile, node);
      if (span.lines > limits.function) findings.push({ kind: 'function', file: fileName, name: functionName(node), ...span });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { findings, handlers: handlers.size };
}

/** Measures every TypeScript file under the folders; paths in the findings are relative to `root`. */
export function measureFolders(folders, root = process.cwd()) {
  const findings = [];
  let handlers = 0;
  let files = 0;
  for (const folder of folders) {
    for (const file of sourceFiles(path.resolve(root, folder))) {
      const relative = path.relative(root, file).split(path.sep).join('/');
      const measured = measureSource(relative, readFileSync(file, 'utf8'));
      findings.push(...measured.findings);
      handlers += measured.handlers;
      files += 1;
    }
  }
  return { files, handlers, findings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const allow = args.filter((a) => a.startsWith('--allow=')).map((a) => a.slice('--allow='.length));
  const folders = args.filter((a) => !a.startsWith('--'));
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const measured = measureFolders(folders.length > 0 ? folders : ['apps/server/src'], root);
  const listed = measured.findings.filter((f) => !allow.some((prefix) => f.file.startsWith(prefix)));
  if (json) {
    console.log(JSON.stringify({ ...measured, listed }, null, 2));
  } else {
    for (const f of measured.findings) {
      const allowed = listed.includes(f) ? '' : ' (allowed)';
      console.log(`${f.file}:${f.line} ${f.kind} ${f.name}: ${f.lines} lines (limit ${limits[f.kind]})${allowed}`);
    }
    console.log(`${measured.files} files, ${measured.handlers} route handlers, ${listed.length} over the limits`);
  }
  process.exit(listed.length > 0 ? 1 : 0);
}
