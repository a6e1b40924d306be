import { describe, expect, it } from 'vitest';
import { grantorParamDefaults } from '@kyc/contracts/params';
import { consentDocument } from './consent';

const params = (values: Record<string, string>) => Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor }));

describe('clause and authorization documents', () => {
  it('read title, text and version from the grantor parameters, with {OTORGANTE}, {USUARIO} and {enter} filled in', () => {
    const list = params({
      RAZON_SOCIAL: 'Financiera SA',
      TITULO_CLAUSULA: 'Cláusula de {OTORGANTE}',
      TEXTO_CLAUSULA: '{USUARIO} acepta.{enter}{OTORGANTE}',
      VERSION_CLAUSULA: '7',
    });
    expect(consentDocument(list, 'clausula', 'Ana López')).toEqual({
      title: 'Cláusula de Financiera SA',
      text: 'Ana López acepta.\nFinanciera SA',
      version: '7',
    });
  });

  it('fall back to the defaults, which use the placeholders and never leave one unfilled', () => {
    for (const kind of ['clausula', 'autorizacion'] as const) {
      const doc = consentDocument(params({ NOMBRE_CORTO: 'Fin' }), kind, null);
      expect(doc.text).toContain('Fin');
      expect(doc.text).toContain('el usuario');
      expect(doc.text).not.toMatch(/\{[A-Za-z]+\}/);
      expect(doc.text.split('\n').length).toBeGreaterThan(1);
      expect(doc.version).toBe('1');
    }
    expect(grantorParamDefaults.TEXTO_AUTORIZACION).toContain('{OTORGANTE}');
  });
});
