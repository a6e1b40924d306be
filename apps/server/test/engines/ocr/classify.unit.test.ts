import { describe, expect, it } from 'vitest';
import { classify, mrzDocument, textScores } from '../../../src/engines/ocr/classify.js';

const base = { mrzLines: null, declaredSide: 'front' as const };

describe('classify', () => {
  it('recognises each document by its header words, misread by a letter and without accents', () => {
    expect(classify({ ...base, text: 'MÉXICO\nINSTITUTO NACIONAL ELECT0RAL CREDENCIAL PARA VOTAR' }).documentType).toBe('INE');
    expect(classify({ ...base, text: 'ESTADOS UNIDOS MEXICANOS PASAPORTE PASSPORT' }).documentType).toBe('PASAPORTE');
    expect(classify({ ...base, text: 'INSTITUTO NACIONAL DE MIGRACIÓN FORMA MIGRATORIA MÚLTIPLE FMM' }).documentType).toBe('FMM');
    expect(classify({ ...base, text: 'REPUBLICA DEL PERU DOCUMENTO NACIONAL DE IDENTIDAD' }).documentType).toBe('DNI_PERU');
  });

  it('lets the MRZ settle type and side', () => {
    expect(mrzDocument(['IDMEX5338842371<<3447342242468'])).toEqual({ documentType: 'INE', side: 'back' });
    expect(mrzDocument(['I<PER56440282<9<<<<<<<<<<<<<<<'])).toEqual({ documentType: 'DNI_PERU', side: 'back' });
    expect(mrzDocument(['P<MEXAGUILAR<BRISENO<<JOAQUIN<<<<<<<<<<<<<<<'])).toEqual({ documentType: 'PASAPORTE', side: 'front' });
    expect(classify({ text: 'CREDENCIAL PARA VOTAR', mrzLines: ['IDMEX5338842371<<3447342242468'], declaredSide: 'front' })).toEqual({ documentType: 'INE', side: 'back' });
  });

  it('reads passports and FMMs as fronts whatever side was declared', () => {
    expect(classify({ text: 'PASAPORTE', mrzLines: null, declaredSide: 'back' })).toEqual({ documentType: 'PASAPORTE', side: 'front' });
  });

  it('says UNKNOWN without enough evidence, and the passport hint alone is not enough', () => {
    expect(classify({ ...base, text: 'SOMETHING ELSE' }).documentType).toBe('UNKNOWN');
    expect(classify({ ...base, text: '', passportHint: true }).documentType).toBe('UNKNOWN');
    expect(classify({ ...base, text: 'PASSPORT', passportHint: true }).documentType).toBe('PASAPORTE');
  });

  it('does not take the FMM header for the INE', () => {
    const scores = textScores('ESTADOS UNIDOS MEXICANOS INSTITUTO NACIONAL DE MIGRACION');
    expect(scores.INE).toBe(0);
    expect(scores.FMM).toBeGreaterThan(0);
  });
});
