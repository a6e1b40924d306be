import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { steps } from '../steps/table';
import type { Catalogue } from './catalogue';
import { texts as common } from './es-MX/common';
import { texts as inicio } from './es-MX/inicio';

const esMX = path.join(path.dirname(fileURLToPath(import.meta.url)), 'es-MX');
const shared = ['common', 'capture'];

/** Every text of a module (strings, list items, and what each text function returns for sample values). */
function leaves(value: unknown, at: string): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (typeof value === 'function') return leaves(value(...Array.from({ length: value.length }, () => 2)), `${at}()`);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => leaves(item, `${at}.${key}`));
  return [[at, `not a text: ${String(value)}`]];
}

describe('the es-MX catalogue', () => {
  it('has one module per step id of the table, plus the shared ones', () => {
    const modules = readdirSync(esMX).map((name) => name.replace(/\.ts$/, ''));
    const unknown = modules.filter((name) => !(name in steps) && !shared.includes(name));
    expect(unknown).toEqual([]);
    expect(modules).toEqual(expect.arrayContaining(shared));
  });

  it('every text is a non-empty string without stray spaces', async () => {
    const bad: string[] = [];
    for (const name of readdirSync(esMX)) {
      const module = (await import(`./es-MX/${name}`)) as { texts?: unknown };
      expect(module.texts, name).toBeDefined();
      for (const [at, text] of leaves(module.texts, name.replace(/\.ts$/, ''))) {
        if (text.trim() === '' || text !== text.trim() || text.startsWith('not a text')) bad.push(`${at}: ${JSON.stringify(text)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('another locale is typed against it: a missing key does not compile', () => {
    const { requirementConnection: _left, ...partial } = inicio;
    // @ts-expect-error requirementConnection is missing: a locale (or a grantor's override) must give every key.
    const incomplete: Catalogue['inicio'] = partial;
    const complete: Catalogue['inicio'] = { ...partial, requirementConnection: 'A good internet connection.' };
    // @ts-expect-error a text with values stays a function of the same values.
    const wrongShape: Catalogue['common']['lockout'] = { ...common.lockout, until: 'at noon' };
    expect([incomplete, complete, wrongShape].length).toBe(3);
  });
});
