import { describe, it, expect } from 'vitest';
import { codigoPostal, curp, dni, fechaNacimiento, fieldValidators, nombreCompleto, optional, required, validateField, validateForm, vigencia, vigenciaPasaporte } from './fields.js';
import { fieldMaxLength } from './limits.js';

const REQUIRED = 'Debes ingresar un valor válido';

describe('nombreCompleto', () => {
  it('is required', () => {
    expect(nombreCompleto('')).toBe(REQUIRED);
    expect(nombreCompleto('   ')).toBe(REQUIRED);
  });

  it('needs at least 10 characters, spaces included, once trimmed', () => {
    expect(nombreCompleto('ANA RUIZ L')).toBeNull(); // 10
    expect(nombreCompleto('ANA RUIZ ')).toBe('Nombre no válido'); // 9 once trimmed
    expect(nombreCompleto('ANARUIZLO')).toBe('Nombre no válido'); // 9
    expect(nombreCompleto('ANARUIZLOP')).toBeNull(); // 10
    expect(nombreCompleto('  ANA RUIZ L  ')).toBeNull();
  });

  it('accepts letters with accents, Ñ and Ü, in any case', () => {
    expect(nombreCompleto('JOSÉ MARÍA PEÑA')).toBeNull();
    expect(nombreCompleto('Úrsula Güemes Ortíz')).toBeNull();
    expect(nombreCompleto('ÁÉÍÓÚ áéíóú ÑñÜü')).toBeNull();
  });

  it('counts a decomposed accent as one character', () => {
    const decomposed = 'JOSE\u0301 PEN\u0303AS'; // 'JOSÉ PEÑAS' typed with combining marks: 10 letters
    expect(nombreCompleto(decomposed)).toBeNull();
    expect(nombreCompleto('JOSE\u0301 PEN\u0303A')).toBe('Nombre no válido'); // 9
  });

  it('refuses digits, punctuation and other characters', () => {
    for (const value of ['JUAN PEREZ 2', 'JUAN PÉREZ-GÓMEZ', "JUAN O'NEIL LOPEZ", 'MA. GUADALUPE LOPEZ', 'JUAN\tPEREZ LOPEZ', 'JUAN PEREZ_LOPEZ', 'JUAN PÈREZ LOPEZ']) {
      expect(nombreCompleto(value), value).toBe('Nombre no válido');
    }
  });
});

describe('fechaNacimiento', () => {
  it('is required', () => {
    expect(fechaNacimiento('')).toBe(REQUIRED);
    expect(fechaNacimiento('  ')).toBe(REQUIRED);
  });

  it('accepts a strict real DD/MM/YYYY', () => {
    expect(fechaNacimiento('27/04/1956')).toBeNull();
    expect(fechaNacimiento('29/02/2000')).toBeNull();
    expect(fechaNacimiento(' 27/04/1956 ')).toBeNull();
  });

  it('refuses other shapes and impossible dates', () => {
    for (const value of ['29/02/1900', '31/11/1990', '27/4/1956', '27/04/56', '27-04-1956', '27 04 1956', '1956/04/27', '27/04/1956x']) {
      expect(fechaNacimiento(value), value).toBe('Revisa el formato dd/mm/aaaa');
    }
  });
});

describe('curp', () => {
  it('is required', () => {
    expect(curp('')).toBe(REQUIRED);
    expect(curp('  ')).toBe(REQUIRED);
  });

  it('accepts a CURP, ignoring case and surrounding spaces', () => {
    expect(curp('HEGG560427MVZRRL04')).toBeNull();
    expect(curp(' hegg560427mvzrrl04 ')).toBeNull();
    expect(curp('HEGG560427XVZRRL04')).toBeNull();
  });

  it('is exactly 18 characters: 15, 16, 17 and 19 fail', () => {
    expect(curp('HEGG560427MVZRRL0'.slice(0, 15))).toBe('Formato de CURP no válido');
    expect(curp('HEGG560427MVZRRL')).toBe('Formato de CURP no válido');
    expect(curp('HEGG560427MVZRRL0')).toBe('Formato de CURP no válido');
    expect(curp('HEGG560427MVZRRL044')).toBe('Formato de CURP no válido');
  });

  it('refuses a broken pattern', () => {
    for (const value of ['HEGG561327MVZRRL04', 'HEGG560427FVZRRL04', 'HEGG560427MXXRRL04', 'HBGG560427MVZRRL04', 'HEGG560427MVZRRL0A', 'HEGG000229MVZRRL04']) {
      expect(curp(value), value).toBe('Formato de CURP no válido');
    }
  });
});

describe('vigencia', () => {
  it('is required', () => {
    expect(vigencia('')).toBe(REQUIRED);
    expect(vigencia(' ')).toBe(REQUIRED);
  });

  it('accepts four digits', () => {
    expect(vigencia('2030')).toBeNull();
    expect(vigencia(' 2030 ')).toBeNull();
  });

  it('asks for 4 digits when only the length is wrong', () => {
    expect(vigencia('203')).toBe('Revisa que el año sea 4 dígitos');
    expect(vigencia('20300')).toBe('Revisa que el año sea 4 dígitos');
    expect(vigencia('3')).toBe('Revisa que el año sea 4 dígitos');
  });

  it('reports non-digits first, whatever the length', () => {
    expect(vigencia('20a0')).toBe('Formato de vigencia no válido');
    expect(vigencia('20a')).toBe('Formato de vigencia no válido');
    expect(vigencia('2030-')).toBe('Formato de vigencia no válido');
    expect(vigencia('20 30')).toBe('Formato de vigencia no válido');
    expect(vigencia('-203')).toBe('Formato de vigencia no válido');
  });
});

describe('vigenciaPasaporte', () => {
  it('is required', () => {
    expect(vigenciaPasaporte('')).toBe(REQUIRED);
  });

  it('accepts PERMANENTE in any case', () => {
    expect(vigenciaPasaporte('PERMANENTE')).toBeNull();
    expect(vigenciaPasaporte(' permanente ')).toBeNull();
    expect(vigenciaPasaporte('PERMANENT')).toBe('Revisa el formato dd/mm/aaaa');
  });

  it('else wants a strict real DD/MM/YYYY, past dates included (validity is checked apart)', () => {
    expect(vigenciaPasaporte('31/12/2030')).toBeNull();
    expect(vigenciaPasaporte('01/01/2001')).toBeNull();
    expect(vigenciaPasaporte('29/02/2000')).toBeNull();
    expect(vigenciaPasaporte('29/02/1900')).toBe('Revisa el formato dd/mm/aaaa');
    expect(vigenciaPasaporte('31/12/30')).toBe('Revisa el formato dd/mm/aaaa');
    expect(vigenciaPasaporte('2030')).toBe('Revisa el formato dd/mm/aaaa');
  });
});

describe('dni', () => {
  it('needs 3 to 19 letters or digits', () => {
    expect(dni('AB')).toBe('Formato de DNI no válido');
    expect(dni('12')).toBe('Formato de DNI no válido');
    expect(dni('ABC')).toBeNull();
    expect(dni('123')).toBeNull();
    expect(dni('12345678')).toBeNull();
    expect(dni('A'.repeat(19))).toBeNull();
    expect(dni('A'.repeat(20))).toBe('Formato de DNI no válido');
    expect(dni(' 12345678 ')).toBeNull();
  });

  it('reports a blank DNI with its own message', () => {
    expect(dni('')).toBe('Formato de DNI no válido');
    expect(dni('   ')).toBe('Formato de DNI no válido');
  });

  it('refuses anything but letters and digits', () => {
    for (const value of ['12-345', '12 345', 'ÑAB', '123.', 'AB_']) expect(dni(value), value).toBe('Formato de DNI no válido');
  });
});

describe('codigoPostal', () => {
  it('is required', () => {
    expect(codigoPostal('')).toBe(REQUIRED);
    expect(codigoPostal('  ')).toBe(REQUIRED);
  });

  it('is five digits', () => {
    expect(codigoPostal('06700')).toBeNull();
    expect(codigoPostal(' 06700 ')).toBeNull();
    expect(codigoPostal('0670')).toBe('Código postal no válido');
    expect(codigoPostal('067000')).toBe('Código postal no válido');
  });

  it('refuses non-digits', () => {
    for (const value of ['0670A', '06 70', '-0670', 'abcde']) expect(codigoPostal(value), value).toBe('Código postal no válido');
  });
});

describe('required and optional', () => {
  it('required wants a non-blank value', () => {
    expect(required('x')).toBeNull();
    expect(required(' Reforma ')).toBeNull();
    expect(required('')).toBe(REQUIRED);
    expect(required(' \t\n')).toBe(REQUIRED);
  });

  it('optional accepts anything', () => {
    expect(optional('')).toBeNull();
    expect(optional('4B')).toBeNull();
  });

  it('covers the address fields, numeroInterior being optional', () => {
    for (const name of ['pais', 'estado', 'delegacion', 'colonia', 'otraColonia', 'calle', 'numeroExterior'] as const) {
      expect(fieldValidators[name], name).toBe(required);
    }
    expect(fieldValidators.numeroInterior).toBe(optional);
  });
});

describe('fieldMaxLength', () => {
  it('matches docs/flow.md §5', () => {
    expect(fieldMaxLength).toEqual({ clave: 20, fechaRegistro: 4, numeroEmision: 2, cic: 13, vigencia: 4, curp: 19, dni: 19, codigoPostal: 5 });
  });
});

describe('validateField', () => {
  it('dispatches by field name', () => {
    expect(validateField('nombreCompleto', 'ANA')).toBe('Nombre no válido');
    expect(validateField('fechaNacimiento', '1/1/2000')).toBe('Revisa el formato dd/mm/aaaa');
    expect(validateField('curp', 'X')).toBe('Formato de CURP no válido');
    expect(validateField('vigencia', '30')).toBe('Revisa que el año sea 4 dígitos');
    expect(validateField('vigenciaPasaporte', 'x')).toBe('Revisa el formato dd/mm/aaaa');
    expect(validateField('dni', 'A')).toBe('Formato de DNI no válido');
    expect(validateField('codigoPostal', 'A')).toBe('Código postal no válido');
    expect(validateField('calle', '')).toBe(REQUIRED);
    expect(validateField('numeroInterior', '')).toBeNull();
  });

  it('accepts fields that have no rule, and ignores inherited keys', () => {
    expect(validateField('clave', '')).toBeNull();
    expect(validateField('cic', 'anything')).toBeNull();
    expect(validateField('toString', '')).toBeNull();
    expect(validateField('__proto__', '')).toBeNull();
  });
});

describe('validateForm', () => {
  const ineForm = ['nombreCompleto', 'fechaNacimiento', 'curp', 'vigencia'];

  it('is empty when every listed field is valid', () => {
    const fields = { nombreCompleto: 'GLORIA HERNANDEZ GARCIA', fechaNacimiento: '27/04/1956', curp: 'HEGG560427MVZRRL04', vigencia: '2030' };
    expect(validateForm(fields, ineForm)).toEqual({});
  });

  it('returns the message of each invalid field, missing ones counting as blank', () => {
    const fields = { nombreCompleto: 'GLORIA', fechaNacimiento: '27/04/1956', vigencia: '20a0' };
    expect(validateForm(fields, ineForm)).toEqual({
      nombreCompleto: 'Nombre no válido',
      curp: REQUIRED,
      vigencia: 'Formato de vigencia no válido',
    });
  });

  it('checks only the listed fields', () => {
    expect(validateForm({ curp: 'bad', dni: '12345678' }, ['dni'])).toEqual({});
    expect(validateForm({ curp: 'bad' }, [])).toEqual({});
  });

  it('validates the address form, otraColonia only when listed', () => {
    const address = { codigoPostal: '06700', pais: 'México', estado: 'CDMX', delegacion: 'Cuauhtémoc', colonia: 'Roma Norte', calle: 'Orizaba', numeroExterior: '10', numeroInterior: '' };
    const names = Object.keys(address);
    expect(validateForm(address, names)).toEqual({});
    expect(validateForm({ ...address, colonia: 'Otro' }, [...names, 'otraColonia'])).toEqual({ otraColonia: REQUIRED });
    expect(validateForm({ ...address, codigoPostal: '067', calle: ' ' }, names)).toEqual({
      codigoPostal: 'Código postal no válido',
      calle: REQUIRED,
    });
  });
});
