import { describe, expect, it } from 'vitest';
import {
  canContinue,
  checksToRun,
  finalValues,
  formErrors,
  formSpec,
  ineBody,
  ineCheckData,
  inputValue,
  maxLengthOf,
  prefill,
  renapoBody,
  selectForm,
  typedFields,
  unreadFields,
  isEditable,
  userDataOf,
  validityOk,
  type FormContext,
  type FormValues,
} from './form-model';

const params = (values: Record<string, string>) => Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor }));
const today = new Date(2026, 4, 20);

const ineFront = {
  nombreCompleto: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ',
  fechaNacimiento: '15/02/90',
  curp: 'HELG900215MDFRPD09',
  claveElector: 'HRLPMR90021509M100',
  anioRegistro: '2008 03',
  emision: '02',
  vigencia: '2031',
  identificacionElectoral: true,
  identificacionPasaporte: false,
  identificacionMigratoria: false,
  documentoNacionalPeru: false,
};
const ineBack = { cicMRZ: '123456789', ineVigencia: '2031' };

const ctx = (overrides: Partial<FormContext> = {}): FormContext => ({ ocrFront: ineFront, ocrBack: ineBack, params: null, passport: false, ...overrides });

describe('form selection (docs/flow.md §2: one of four forms by document type)', () => {
  it('INE with API checks when ENABLE_INE is on and the ID is electoral; INE/OCR otherwise', () => {
    expect(selectForm(ctx())).toBe('ineApi');
    expect(selectForm(ctx({ params: params({ ENABLE_INE: 'false' }) }))).toBe('ineOcr');
    expect(selectForm(ctx({ params: params({ ENABLE_INE: 'FALSO' }) }))).toBe('ineOcr');
    expect(selectForm(ctx({ ocrFront: { ...ineFront, identificacionElectoral: false } }))).toBe('ineOcr');
    expect(selectForm(ctx({ ocrFront: null }))).toBe('ineOcr');
  });

  it('passport/migration form for a passport (flag or router state) and a migration form', () => {
    expect(selectForm(ctx({ passport: true }))).toBe('passport');
    expect(selectForm(ctx({ ocrFront: { ...ineFront, identificacionElectoral: false, identificacionPasaporte: true } }))).toBe('passport');
    expect(selectForm(ctx({ ocrFront: { nombreCompleto: 'JOHN SMITH', identificacionMigratoria: 'true' } }))).toBe('passport');
  });

  it('DNI form for a Peru DNI and in the DNI variant', () => {
    expect(selectForm(ctx({ ocrFront: { documentoNacionalPeru: true, dni: '45678912' } }))).toBe('dni');
    expect(selectForm(ctx({ params: params({ VARIANTE_DNI: 'true' }) }))).toBe('dni');
  });

  it('the INE form with API checks is read-only; the others are editable', () => {
    expect(formSpec('ineApi', false).editable).toBe(false);
    expect(formSpec('ineOcr', false).editable).toBe(true);
    expect(formSpec('passport', false).editable).toBe(true);
    expect(formSpec('dni', true).editable).toBe(true);
  });

  it('the passport form asks for the DNI instead of the CURP in the DNI variant', () => {
    expect(formSpec('passport', false).fields).toEqual(['nombreCompleto', 'fechaNacimiento', 'curp', 'vigenciaPasaporte']);
    expect(formSpec('passport', true).fields).toEqual(['nombreCompleto', 'fechaNacimiento', 'dni', 'vigenciaPasaporte']);
    expect(formSpec('ineApi', false).fields).toContain('cic');
  });
});

describe('pre-fill with the docs/flow.md §5 OCR normalisations', () => {
  it('INE: century of a DD/MM/YY birth date, CURP, validity year, INE data', () => {
    const values = prefill(formSpec('ineApi', false), ineFront, ineBack, today);
    expect(values).toMatchObject({
      nombreCompleto: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ',
      fechaNacimiento: '15/02/1990',
      curp: 'HELG900215MDFRPD09',
      clave: 'HRLPMR90021509M100',
      fechaRegistro: '2008',
      numeroEmision: '02',
      cic: '123456789',
      vigencia: '2031',
    });
  });

  it('emission number: two digits pre-filled, the year some models print at EMISIÓN left for the person', () => {
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, emision: '2008' }, null, today).numeroEmision).toBe('');
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, emision: ' 03 ' }, null, today).numeroEmision).toBe('03');
  });

  it('"OCR CURP used only when longer than 14 characters"', () => {
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, curp: 'HELG900215MDF' }, null, today).curp).toBe('');
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, curp: 'helg900215mdfrpd0' }, null, today).curp).toBe('HELG900215MDFRPD0');
  });

  it("\"OCR validity year built as '20' plus the last two digits\"; the back's validity when the front has none", () => {
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, vigencia: '2020 - 31' }, null, today).vigencia).toBe('2031');
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, vigencia: '' }, { ineVigencia: '2029' }, today).vigencia).toBe('2029');
  });

  it('"shorter than 6 is emptied"', () => {
    expect(prefill(formSpec('ineOcr', false), { ...ineFront, fechaNacimiento: '1/2/9' }, null, today).fechaNacimiento).toBe('');
  });

  it('the name from its parts when the full name was not read', () => {
    const front = { nombres: 'JUAN CARLOS', apellidoPaterno: 'PÉREZ', apellidoMaterno: 'GÓMEZ' };
    expect(prefill(formSpec('ineOcr', false), front, null, today).nombreCompleto).toBe('JUAN CARLOS PÉREZ GÓMEZ');
  });

  it('passport validity: a date (any accepted format) or PERMANENTE', () => {
    const spec = formSpec('passport', false);
    expect(prefill(spec, { vigencia: '03 04 2030' }, null, today).vigenciaPasaporte).toBe('03/04/2030');
    expect(prefill(spec, { vigencia: 'permanente' }, null, today).vigenciaPasaporte).toBe('PERMANENTE');
    expect(prefill(spec, { vigencia: '', documentoPermanente: true }, null, today).vigenciaPasaporte).toBe('PERMANENTE');
  });

  it('the uppercase forms trim and uppercase what they pre-fill; values are cut to the max length', () => {
    const values = prefill(formSpec('passport', false), { nombreCompleto: '  ana maría ruiz díaz ', curp: 'ruda900215mdfrpd09x' }, null, today);
    expect(values.nombreCompleto).toBe('ANA MARÍA RUIZ DÍAZ');
    expect(values.curp).toBe('RUDA900215MDFRPD09');
    expect(prefill(formSpec('ineApi', false), { ...ineFront, claveElector: 'X'.repeat(30) }, null, today).clave).toHaveLength(20);
  });
});

describe('typing', () => {
  const ocr = formSpec('ineOcr', false);

  it('birth date with the ##/##/#### mask', () => {
    expect(inputValue(ocr, 'fechaNacimiento', '15021990')).toBe('15/02/1990');
    expect(inputValue(ocr, 'fechaNacimiento', '1/2/1990')).toBe('01/02/1990');
  });

  it('CURP uppercased and cut to 18 in the INE/OCR and passport forms', () => {
    expect(inputValue(ocr, 'curp', 'helg900215mdfrpd09zz')).toBe('HELG900215MDFRPD09');
    expect(inputValue(ocr, 'nombreCompleto', 'maría lópez ')).toBe('MARÍA LÓPEZ ');
  });

  it('passport validity takes PERMANENTE or a masked date', () => {
    const passport = formSpec('passport', false);
    expect(inputValue(passport, 'vigenciaPasaporte', 'perma nente')).toBe('PERMANENTE');
    expect(inputValue(passport, 'vigenciaPasaporte', '03042030')).toBe('03/04/2030');
  });

  it('the DNI form keeps the case and only limits the length', () => {
    expect(inputValue(formSpec('dni', true), 'dni', '12345678901234567890123')).toHaveLength(19);
    expect(maxLengthOf('cic')).toBe(13);
    expect(maxLengthOf('vigencia')).toBe(4);
    expect(maxLengthOf('curp')).toBe(19);
  });
});

describe('validation, validity and the continue button', () => {
  const spec = formSpec('ineOcr', false);
  const good = (): FormValues => prefill(spec, ineFront, ineBack, today);

  it('whole-form validation with the spec messages', () => {
    expect(formErrors(spec, good())).toEqual({});
    expect(formErrors(spec, { ...good(), nombreCompleto: 'ANA', curp: 'XX', vigencia: '31', fechaNacimiento: '15/13/1990' })).toEqual({
      nombreCompleto: 'Nombre no válido',
      curp: 'Formato de CURP no válido',
      vigencia: 'Revisa que el año sea 4 dígitos',
      fechaNacimiento: 'Revisa el formato dd/mm/aaaa',
    });
    expect(formErrors(spec, { ...good(), nombreCompleto: '  ' }).nombreCompleto).toBe('Debes ingresar un valor válido');
  });

  it('INE validity: this year or later, 31 Dec still ahead', () => {
    expect(validityOk(spec, { ...good(), vigencia: '2026' }, today)).toBe(true);
    expect(validityOk(spec, { ...good(), vigencia: '2025' }, today)).toBe(false);
  });

  it('passport validity: a future date; PERMANENTE skips the check', () => {
    const passport = formSpec('passport', false);
    const values = prefill(passport, ineFront, null, today);
    expect(validityOk(passport, { ...values, vigenciaPasaporte: '21/05/2026' }, today)).toBe(true);
    expect(validityOk(passport, { ...values, vigenciaPasaporte: '20/05/2026' }, today)).toBe(false);
    expect(validityOk(passport, { ...values, vigenciaPasaporte: 'PERMANENTE' }, today)).toBe(true);
  });

  it('continue: CURP 16 to 18 and a name of 10; DNI 3 and a name of 10', () => {
    expect(canContinue(spec, good())).toBe(true);
    expect(canContinue(spec, { ...good(), curp: 'HELG900215MDFRP' })).toBe(false);
    expect(canContinue(spec, { ...good(), nombreCompleto: 'ANA LÓPEZ' })).toBe(false);
    const dni = formSpec('dni', true);
    expect(canContinue(dni, { ...good(), dni: '456', curp: '' })).toBe(true);
    expect(canContinue(dni, { ...good(), dni: '45' })).toBe(false);
  });
});

describe('what is saved and checked', () => {
  it('data_user: nombreCompleto, nacimiento, curp, vigencia as 31/12/ + year', () => {
    const spec = formSpec('ineOcr', false);
    const values = { ...prefill(spec, ineFront, ineBack, today), nombreCompleto: ' maría guadalupe hernández ' };
    expect(userDataOf(spec, values)).toEqual([
      { description: 'nombreCompleto', value: 'MARÍA GUADALUPE HERNÁNDEZ' },
      { description: 'nacimiento', value: '15/02/1990' },
      { description: 'curp', value: 'HELG900215MDFRPD09' },
      { description: 'vigencia', value: '31/12/2031' },
    ]);
  });

  it('data_user of a DNI and a passport keeps the validity date', () => {
    const dni = formSpec('dni', true);
    const values = prefill(dni, { nombreCompleto: 'ROSA MARÍA QUISPE HUAMÁN', dni: '45678912', fechaNacimiento: '01/01/1980', vigencia: '10/10/2030' }, null, today);
    expect(userDataOf(dni, values)).toEqual([
      { description: 'nombreCompleto', value: 'ROSA MARÍA QUISPE HUAMÁN' },
      { description: 'nacimiento', value: '01/01/1980' },
      { description: 'dni', value: '45678912' },
      { description: 'vigencia', value: '10/10/2030' },
    ]);
  });

  it('INE call data: OCR number, elector key and emission when the cic has 13 characters, else the cic', () => {
    const values = prefill(formSpec('ineApi', false), ineFront, ineBack, today);
    expect(ineCheckData(values)).toEqual({ cic: '123456789' });
    expect(ineCheckData({ ...values, cic: '1234567890123' })).toEqual({
      ocr: '1234567890123',
      claveElector: 'HRLPMR90021509M100',
      numeroEmisionCredencial: '02',
    });
  });

  it('call bodies of docs/flow.md §7: Renapo {uuid, turn -1, curp}; INE {uuid, turn -1, data, fingerprint}', () => {
    const values = prefill(formSpec('ineApi', false), ineFront, ineBack, today);
    const uuid = 'aaaaaaaa-0000-4000-8000-000000000001';
    expect(renapoBody(uuid, values)).toEqual({ uuid, turn: -1, curp: 'HELG900215MDFRPD09' });
    expect(ineBody(uuid, values)).toEqual({ uuid, turn: -1, data: { cic: '123456789' }, fingerprint: { indexLeft: null, indexRight: '' } });
  });

  it('Renapo for a CURP when ENABLE_RENAPO; the INE list only for the INE form with API checks', () => {
    expect(checksToRun(formSpec('ineApi', false), null)).toEqual({ renapo: true, ine: true });
    expect(checksToRun(formSpec('ineOcr', false), null)).toEqual({ renapo: true, ine: false });
    expect(checksToRun(formSpec('ineApi', false), params({ ENABLE_RENAPO: 'false' }))).toEqual({ renapo: false, ine: true });
    expect(checksToRun(formSpec('dni', true), null)).toEqual({ renapo: false, ine: false });
  });

  it('final values are trimmed (and uppercased where the form says so)', () => {
    const spec = formSpec('dni', true);
    expect(finalValues(spec, { ...prefill(spec, null, null, today), nombreCompleto: ' Rosa Quispe Huamán ' }).nombreCompleto).toBe('Rosa Quispe Huamán');
  });
});

describe('no dead end on a field the reader could not read (docs/flow.md §4)', () => {
  const api = formSpec('ineApi', false);
  const unreadFront = { ...ineFront, vigencia: '', emision: '' };

  it('makes an unread or unusable field editable on the read-only form, and only that one', () => {
    const prefilled = prefill(api, unreadFront, { cicMRZ: '123456789' }, today);
    const unread = unreadFields(api, prefilled);
    expect([...unread].sort()).toEqual(['numeroEmision', 'vigencia']);
    expect(isEditable(api, unread, 'vigencia')).toBe(true);
    expect(isEditable(api, unread, 'curp')).toBe(false);
    // Everything read: nothing to type, the form stays read-only.
    expect(unreadFields(api, prefill(api, ineFront, ineBack, today)).size).toBe(0);
  });

  it('marks what the person typed, and only that, in data_user', () => {
    const prefilled = prefill(api, unreadFront, { cicMRZ: '123456789' }, today);
    const values = { ...prefilled, vigencia: '2031' };
    const typed = typedFields(api, prefilled, values);
    expect(typed).toEqual(['vigencia']);
    expect(userDataOf(api, values, typed)).toEqual([
      { description: 'nombreCompleto', value: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ' },
      { description: 'nacimiento', value: '15/02/1990' },
      { description: 'curp', value: 'HELG900215MDFRPD09' },
      { description: 'vigencia', value: '31/12/2031', typed: true },
    ]);
    // Normalisation on blur (case, spaces) is not typing.
    const ocr = formSpec('ineOcr', false);
    const read = prefill(ocr, ineFront, ineBack, today);
    expect(typedFields(ocr, read, { ...read, nombreCompleto: ` ${read.nombreCompleto.toLowerCase()} ` })).toEqual([]);
  });
});
