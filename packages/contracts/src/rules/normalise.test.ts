import { describe, it, expect } from 'vitest';
import { normaliseUpperTrim, trimCurp } from './normalise.js';

describe('normaliseUpperTrim', () => {
  it('trims and uppercases, accents and ñ included', () => {
    expect(normaliseUpperTrim('  josé peña  ')).toBe('JOSÉ PEÑA');
    expect(normaliseUpperTrim('\tpermanente\n')).toBe('PERMANENTE');
    expect(normaliseUpperTrim('')).toBe('');
    expect(normaliseUpperTrim('   ')).toBe('');
  });
});

describe('trimCurp', () => {
  it('trims, uppercases and cuts to 18', () => {
    expect(trimCurp(' hegg560427mvzrrl04 ')).toBe('HEGG560427MVZRRL04');
    expect(trimCurp('HEGG560427MVZRRL04X')).toBe('HEGG560427MVZRRL04');
    expect(trimCurp('hegg5604')).toBe('HEGG5604');
    expect(trimCurp('')).toBe('');
  });
});
