import { describe, it, expect } from 'vitest';
import { isFalso, isTruthyParam } from './flags.js';

describe('isFalso', () => {
  it('is true for FALSO and false, in any case and with spaces', () => {
    for (const value of ['FALSO', 'falso', 'Falso', ' FALSO ', 'false', 'False', 'FALSE']) expect(isFalso(value), value).toBe(true);
  });

  it('is false for anything else, unset included', () => {
    for (const value of ['VERDADERO', 'true', '', '0', 'no', 'FALSOS', undefined, null]) expect(isFalso(value), String(value)).toBe(false);
  });
});

describe('isTruthyParam', () => {
  it('is true for VERDADERO and true, in any case and with spaces', () => {
    for (const value of ['VERDADERO', 'verdadero', ' Verdadero ', 'true', 'True', 'TRUE']) expect(isTruthyParam(value), value).toBe(true);
  });

  it('is false for anything else, unset included', () => {
    for (const value of ['FALSO', 'false', '', '1', 'si', 'yes', undefined, null]) expect(isTruthyParam(value), String(value)).toBe(false);
  });
});
