import { describe, it, expect } from 'vitest';
import { documentType } from './document-type.js';

describe('documentType', () => {
  it('is INE by default', () => {
    expect(documentType({})).toBe('INE');
    expect(documentType({ identificacionElectoral: false, identificacionPasaporte: false })).toBe('INE');
  });

  it('follows the single flag set', () => {
    expect(documentType({ identificacionElectoral: true })).toBe('INE');
    expect(documentType({ identificacionPasaporte: true })).toBe('PASAPORTE');
    expect(documentType({ documentoNacionalPeru: true })).toBe('DNI_PERU');
    expect(documentType({ identificacionMigratoria: true })).toBe('FMM');
  });

  it('reads string flags as the OCR payload may send them', () => {
    expect(documentType({ identificacionPasaporte: 'true' })).toBe('PASAPORTE');
    expect(documentType({ identificacionMigratoria: 'TRUE' })).toBe('FMM');
    expect(documentType({ identificacionPasaporte: 'false' })).toBe('INE');
    expect(documentType({ identificacionPasaporte: null })).toBe('INE');
  });

  it('when several are set: INE, then passport, then DNI Peru, then migration', () => {
    expect(documentType({ identificacionElectoral: true, identificacionPasaporte: true })).toBe('INE');
    expect(documentType({ identificacionPasaporte: true, identificacionMigratoria: true })).toBe('PASAPORTE');
    expect(documentType({ documentoNacionalPeru: true, identificacionMigratoria: true })).toBe('DNI_PERU');
  });
});
