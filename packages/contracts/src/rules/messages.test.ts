import { describe, it, expect } from 'vitest';
import { messages } from './messages.js';

describe('messages', () => {
  it('holds every docs/flow.md §5 message verbatim', () => {
    expect(messages).toEqual({
      required: 'Debes ingresar un valor válido',
      invalidName: 'Nombre no válido',
      invalidDate: 'Revisa el formato dd/mm/aaaa',
      invalidCurp: 'Formato de CURP no válido',
      yearDigits: 'Revisa que el año sea 4 dígitos',
      invalidValidity: 'Formato de vigencia no válido',
      invalidDni: 'Formato de DNI no válido',
      invalidPostalCode: 'Código postal no válido',
      frontDataFormat: 'Datos no cumplen con formato',
      frontDataIncomplete: 'Datos incompletos',
    });
  });

  it('uses precomposed (NFC) accents, so they compare equal to typed text', () => {
    for (const message of Object.values(messages)) expect(message).toBe(message.normalize('NFC'));
    expect(messages.required).toContain('\u00e1');
    expect(messages.yearDigits).toContain('\u00f1');
    expect(messages.yearDigits).toContain('\u00ed');
    expect(messages.invalidPostalCode.startsWith('C\u00f3digo')).toBe(true);
  });
});
