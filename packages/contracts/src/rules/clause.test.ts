import { describe, it, expect } from 'vitest';
import { clauseButtonEnabled } from './clause.js';

const name10 = 'ANA RUIZ L';
const name9 = 'ANA RUIZ ';

describe('clauseButtonEnabled', () => {
  it('DNI variant: first at least 3, second at least 10', () => {
    expect(clauseButtonEnabled('123', name10, true)).toBe(true);
    expect(clauseButtonEnabled('12345678901234567890', name10, true)).toBe(true);
    expect(clauseButtonEnabled('12', name10, true)).toBe(false);
    expect(clauseButtonEnabled('123', name9, true)).toBe(false);
  });

  it('otherwise: first 16 to 18, second at least 10', () => {
    expect(clauseButtonEnabled('A'.repeat(15), name10, false)).toBe(false);
    expect(clauseButtonEnabled('A'.repeat(16), name10, false)).toBe(true);
    expect(clauseButtonEnabled('A'.repeat(18), name10, false)).toBe(true);
    expect(clauseButtonEnabled('A'.repeat(19), name10, false)).toBe(false);
    expect(clauseButtonEnabled('A'.repeat(18), name9, false)).toBe(false);
    expect(clauseButtonEnabled('123', name10, false)).toBe(false);
  });

  it('ignores surrounding spaces', () => {
    expect(clauseButtonEnabled(' 12 ', name10, true)).toBe(false);
    expect(clauseButtonEnabled(` ${'A'.repeat(18)} `, name10, false)).toBe(true);
    expect(clauseButtonEnabled('123', '  ANA RUIZ  ', true)).toBe(false);
  });
});
