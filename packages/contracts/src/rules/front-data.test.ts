import { describe, it, expect } from 'vitest';
import { frontDataCheck } from './front-data.js';

const name10 = 'ANA RUIZ L';
const name9 = 'ANA RUIZ ';
const format = { ok: false, reason: 'Datos no cumplen con formato' };
const incomplete = { ok: false, reason: 'Datos incompletos' };

describe('frontDataCheck', () => {
  it('is incomplete without a name', () => {
    expect(frontDataCheck({ curp: 'HEGG560427MVZRRL04' })).toEqual(incomplete);
    expect(frontDataCheck({ nombreCompleto: '  ', dni: '12345678' })).toEqual(incomplete);
    expect(frontDataCheck({})).toEqual(incomplete);
  });

  it('is incomplete without a CURP or DNI', () => {
    expect(frontDataCheck({ nombreCompleto: 'GLORIA HERNANDEZ' })).toEqual(incomplete);
    expect(frontDataCheck({ nombreCompleto: 'GLORIA HERNANDEZ', curp: '', dni: ' ' })).toEqual(incomplete);
    expect(frontDataCheck({ nombreCompleto: 'GLORIA HERNANDEZ', curp: null, dni: null })).toEqual(incomplete);
  });

  it('with a CURP wants at least 16 characters and a 10-character name', () => {
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEGG560427MVZRRL' })).toEqual({ ok: true }); // 16
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEGG560427MVZRRL04' })).toEqual({ ok: true }); // 18
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEGG560427MVZRR' })).toEqual(format); // 15
    expect(frontDataCheck({ nombreCompleto: name9, curp: 'HEGG560427MVZRRL04' })).toEqual(format);
  });

  it('with a DNI wants at least 3 characters and a 10-character name', () => {
    expect(frontDataCheck({ nombreCompleto: name10, dni: '123' })).toEqual({ ok: true });
    expect(frontDataCheck({ nombreCompleto: name10, dni: '12' })).toEqual(format);
    expect(frontDataCheck({ nombreCompleto: name9, dni: '12345678' })).toEqual(format);
  });

  it('with both, either ID meeting its minimum is enough', () => {
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEG', dni: '12345678' })).toEqual({ ok: true });
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEGG560427MVZRRL04', dni: '1' })).toEqual({ ok: true });
    expect(frontDataCheck({ nombreCompleto: name10, curp: 'HEG', dni: '1' })).toEqual(format);
  });

  it('counts trimmed lengths', () => {
    expect(frontDataCheck({ nombreCompleto: '  ANA RUIZ  ', dni: '123' })).toEqual(format);
    expect(frontDataCheck({ nombreCompleto: name10, dni: ' 12 ' })).toEqual(format);
  });
});
