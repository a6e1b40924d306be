import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every customer-facing text lives in the catalogue (i18n/es-MX/, docs/decisions.md "Per-locale text catalogue"):
 * a .tsx file outside i18n/ may not carry a Spanish literal in JSX text, nor in the props a person reads or hears
 * (aria-label, alt, title, placeholder, and the flow's own `…Label`/`…Title`/`message` props), nor as a string handed to JSX as a child (`{cond ? 'Sí' : 'No'}`).
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const src = path.dirname(root);
/** Props a person reads or hears: the DOM's, and the flow's own components' texts (`captureLabel`, `message`...). */
const readProp = /^(aria-label|alt|title|placeholder|aria-description|aria-valuetext|label|message|hint)$|(Label|Title|Text|Message)$/;
/** A word: two letters or more (Spanish letters included); punctuation, digits and symbols alone are not text. */
const word = /[A-Za-zÁÉÍÓÚÜÑáéíóúüñ¿¡]{2,}/;

function tsxSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === root ? [] : tsxSources(full);
    return entry.name.endsWith('.tsx') && !/\.test\.tsx$/.test(entry.name) ? [full] : [];
  });
}

/** The literal texts (string, template parts) of an expression a prop or a JSX child receives. */
function literalTexts(node: ts.Node): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
  if (ts.isTemplateExpression(node)) return [node.head, ...node.templateSpans.map((span) => span.literal)];
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node)) return [...literalTexts(node.left), ...literalTexts(node.right)];
  return [];
}

function textOf(node: ts.Node): string {
  if (ts.isJsxText(node)) return node.text;
  if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) return node.text;
  return '';
}

/** Each inline text of a .tsx source, as `file:line "text"`. */
export function inlineTexts(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) found.push(node);
    else if (ts.isJsxAttribute(node) && readProp.test(node.name.getText(source)) && node.initializer) {
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (value) found.push(...literalTexts(value));
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      found.push(...literalTexts(node.expression));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter((node) => word.test(textOf(node)))
    .map((node) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      return `${path.relative(src, file)}:${line} "${textOf(node).trim()}"`;
    });
}

describe('customer-facing texts come from the catalogue', () => {
  it('finds a newly added literal in JSX text, in a read prop and in a JSX child expression', () => {
    const sample = [
      'export const A = ({ ok }: { ok: boolean }) => (',
      '  <p aria-label="Cámara lista" className="x" data-testid="camera">',
      '    Presiona CONTINUAR',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is source text holding a template literal
      '    <img alt={`Foto ${1}`} src={url} />',
      "    {ok ? 'Sí' : 'No hay datos'}",
      '    <Prep captureLabel="CAPTURAR" className="prep" tipsTitle={ready ? texts.title : \'Antes de empezar\'} />',
      '    {texts.title} · {count}',
      '  </p>',
      ');',
    ].join('\n');
    expect(inlineTexts(path.join(src, 'steps/x/index.tsx'), sample)).toEqual([
      'steps/x/index.tsx:2 "Cámara lista"',
      'steps/x/index.tsx:3 "Presiona CONTINUAR"',
      'steps/x/index.tsx:4 "Foto"',
      'steps/x/index.tsx:5 "Sí"',
      'steps/x/index.tsx:5 "No hay datos"',
      'steps/x/index.tsx:6 "CAPTURAR"',
      'steps/x/index.tsx:6 "Antes de empezar"',
    ]);
  });

  it('no .tsx file of the flow outside i18n/ carries an inline text', () => {
    const found = tsxSources(src).flatMap((file) => inlineTexts(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
