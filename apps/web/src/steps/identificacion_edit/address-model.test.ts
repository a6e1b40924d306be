import { describe, expect, it } from 'vitest';
import { activeFields, addressUserData, applyLookup, formValid, initialAddress, otherSettlement, placeUnknown, postalCodeInput, shouldLookUp, type AddressForm } from './address-model';

const reading = {
  leido: true,
  nombreCompleto: 'NOEMÍ LÓPEZ ESPINOZA',
  calle: 'CALLE HIDALGO',
  numeroExterior: '59',
  colonia: 'JARDINES DE LA PAZ',
  codigoPostal: '31081',
  delegacion: 'CHIHUAHUA',
  estado: 'CHIHUAHUA',
  coincideNombre: true,
  vigente: true,
  intentosRestantes: 3,
};

const settlements = (names: string[]) => names.map((asentamiento) => ({ asentamiento, municipio: 'Metepec', estado: 'México' }));

describe('address form (datos_direccion_ocr_page)', () => {
  it('is pre-filled from the proof reading, colonia as free text', () => {
    const form = initialAddress(reading, { calle: 'C MORELOS', cp: '06700' });
    expect(form.source).toBe('comprobante');
    expect(form.colonia).toEqual({ kind: 'text' });
    expect(form.values).toMatchObject({ codigoPostal: '31081', pais: 'México', calle: 'CALLE HIDALGO', numeroExterior: '59', colonia: 'JARDINES DE LA PAZ' });
    expect(formValid(form)).toBe(true);
  });
  it('falls back to the ID front address when the proof was not legible', () => {
    const form = initialAddress({ ...reading, leido: false }, { calle: 'C MORELOS', numero: '123 INT 4', colonia: 'CENTRO', cp: '76000', municipio: 'QUERÉTARO', estado: 'QUERÉTARO' });
    expect(form.source).toBe('identificacion');
    expect(form.values).toMatchObject({ calle: 'C MORELOS', numeroExterior: '123', numeroInterior: '4', colonia: 'CENTRO', codigoPostal: '76000', delegacion: 'QUERÉTARO' });
    expect(initialAddress(null, null).source).toBe('none');
  });
  it('keeps the postal code to 5 digits', () => {
    expect(postalCodeInput('52a1-40 9')).toBe('52140');
  });
  it('looks up only when the user typed exactly 5 digits', () => {
    expect(shouldLookUp('5214', '52140', true)).toBe(true);
    expect(shouldLookUp('5214', '52140', false)).toBe(false);
    expect(shouldLookUp('521', '5214', true)).toBe(false);
    expect(shouldLookUp('52140', '52140', true)).toBe(false);
  });
  it('one settlement fills colonia; several fill the dropdown with Otro', () => {
    const base = initialAddress(null, null);
    const one = applyLookup(base, settlements(['Roma Norte']));
    expect(one.values).toMatchObject({ colonia: 'Roma Norte', delegacion: 'Metepec', estado: 'México' });
    expect(one.colonia.kind).toBe('text');
    const many = applyLookup({ ...base, values: { ...base.values, colonia: 'ALAMOS' } }, settlements(['Álamos', 'La Asunción', 'La Asunción']));
    expect(many.colonia).toEqual({ kind: 'select', options: ['Álamos', 'La Asunción', otherSettlement] });
    expect(many.values.colonia).toBe('Álamos');
    expect(applyLookup(base, [])).toBe(base);
  });
  it('a postal code missing from the catalogue empties the place read from the ID, and GUARDAR waits for it', () => {
    const fromId = initialAddress(null, { calle: 'C MORELOS', numero: '123', colonia: 'CENTRO', cp: '76000', municipio: 'QUERÉTARO', estado: 'QUERÉTARO' });
    expect(formValid(fromId)).toBe(true);
    const typed: AddressForm = { ...fromId, values: { ...fromId.values, codigoPostal: '99999' } };
    // Until the catalogue answers, the ID's place does not belong to the typed code.
    expect(formValid(typed)).toBe(false);
    const unknown = applyLookup(typed, []);
    expect(unknown.values).toMatchObject({ codigoPostal: '99999', estado: '', delegacion: '', colonia: '', calle: 'C MORELOS', numeroExterior: '123' });
    expect(unknown.colonia).toEqual({ kind: 'text' });
    expect(formValid(unknown)).toBe(false);
    const completed = { ...unknown, values: { ...unknown.values, estado: 'Yucatán', delegacion: 'Mérida', colonia: 'Centro' } };
    expect(formValid(completed)).toBe(true);
    expect(Object.fromEntries(addressUserData(completed).map((d) => [d.description, d.value]))).toMatchObject({
      codigoPostal: '99999',
      estado: 'Yucatán',
      delegacion: 'Mérida',
      colonia: 'Centro',
    });
    // A failed lookup empties them the same way; a code whose place the form already holds keeps it.
    expect(placeUnknown(typed).values).toMatchObject({ estado: '', delegacion: '', colonia: '' });
    expect(placeUnknown(fromId)).toBe(fromId);
    // Back to a looked-up code: the catalogue's place belongs to it.
    const found = applyLookup({ ...completed, values: { ...completed.values, codigoPostal: '06700' } }, [{ asentamiento: 'Roma Norte', municipio: 'Cuauhtémoc', estado: 'Ciudad de México' }]);
    expect(found.values).toMatchObject({ colonia: 'Roma Norte', delegacion: 'Cuauhtémoc', estado: 'Ciudad de México' });
    expect(formValid(found)).toBe(true);
  });
  it('asks for otraColonia only when Otro is chosen, and GUARDAR waits for every required field', () => {
    const filled = { ...initialAddress(reading, null) };
    const select: AddressForm = { ...filled, colonia: { kind: 'select', options: ['A', 'B', otherSettlement] }, values: { ...filled.values, colonia: otherSettlement } };
    expect(activeFields(select)).toContain('otraColonia');
    expect(formValid(select)).toBe(false);
    expect(formValid({ ...select, values: { ...select.values, otraColonia: 'Barrio Nuevo' } })).toBe(true);
    expect(activeFields(filled)).not.toContain('otraColonia');
    expect(formValid({ ...filled, values: { ...filled.values, numeroInterior: '' } })).toBe(true);
    expect(formValid({ ...filled, values: { ...filled.values, codigoPostal: '3108' } })).toBe(false);
    expect(formValid({ ...filled, values: { ...filled.values, calle: '  ' } })).toBe(false);
    expect(formValid({ ...filled, values: { ...filled.values, numeroExterior: '' } })).toBe(false);
  });
  it('saves data_user with calleCompleta = street + exterior number and Otro resolved', () => {
    const filled = initialAddress(reading, null);
    const select: AddressForm = { ...filled, colonia: { kind: 'select', options: ['A', otherSettlement] }, values: { ...filled.values, colonia: otherSettlement, otraColonia: 'Barrio Nuevo' } };
    const data = Object.fromEntries(addressUserData(select).map((d) => [d.description, d.value]));
    expect(data).toMatchObject({ calleCompleta: 'CALLE HIDALGO 59', colonia: 'Barrio Nuevo', codigoPostal: '31081', pais: 'México' });
  });
});
