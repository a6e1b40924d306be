import { describe, expect, it } from 'vitest';
import { fillPlaceholders, longDate, sha256Hex, termsDocument } from './terms';

const params = (values: Record<string, string>) => Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor }));

describe('/terminos text', () => {
  it('"Texts support the placeholders {OTORGANTE}, {USUARIO} and {enter} (line break)."', () => {
    expect(fillPlaceholders('{OTORGANTE} y {USUARIO}.{enter}{OTORGANTE}', { grantor: 'Fin', user: 'Ana' })).toBe('Fin y Ana.\nFin');
  });

  it('uses RAZON_SOCIAL (the legal entity), else NOMBRE_CORTO, and the user name when known, else "el usuario"', () => {
    const now = new Date(2026, 10, 26);
    const base = { TEXTO_TERMINOS: '{OTORGANTE}|{USUARIO}', CIUDAD_LEGAL_DEL_OTORGANTE: 'Monterrey' };
    expect(termsDocument(params({ ...base, NOMBRE_CORTO: 'Fin', RAZON_SOCIAL: 'Fin SA' }), 'Ana López', now).text).toBe('Fin SA|Ana López');
    expect(termsDocument(params({ ...base, NOMBRE_CORTO: 'Fin' }), null, now).text).toBe('Fin|el usuario');
    expect(termsDocument(params(base), null, now).dateLine).toBe('Monterrey, a 26 de noviembre de 2026');
  });

  it('"Dates shown in es-MX long form."', () => {
    expect(longDate(new Date(2026, 0, 5))).toBe('5 de enero de 2026');
  });

  it('hashes the exact accepted text with SHA-256', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('Línea\nDos')).toHaveLength(64);
  });
});
