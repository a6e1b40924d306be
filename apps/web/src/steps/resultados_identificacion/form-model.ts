import { paramEnabled, type GrantorParam } from '@kyc/contracts/params';
import {
  clauseButtonEnabled,
  fieldMaxLength,
  formatDate,
  isIneValidityValid,
  isPassportValidityValid,
  maskDate,
  normaliseOcrBirthDate,
  normaliseUpperTrim,
  ocrCurpOrEmpty,
  ocrValidityYear,
  parseFlexibleDate,
  storedValidity,
  trimCurp,
  validateField,
  validateForm,
} from '@kyc/contracts/rules';
import { ocrText, type OcrRecord } from '../../session/idCapture';

/**
 * The "Verifica tu información" forms (docs/flow.md §2) as pure functions: which form, which fields, how they
 * are pre-filled from the OCR reads, normalised while typing and on saving, validated, and what is saved.
 */
export type FormKind = 'ineApi' | 'ineOcr' | 'dni' | 'passport';

/** Form fields of docs/flow.md §3. */
export type FieldName = 'nombreCompleto' | 'fechaNacimiento' | 'clave' | 'fechaRegistro' | 'numeroEmision' | 'cic' | 'curp' | 'dni' | 'vigencia' | 'vigenciaPasaporte';

export type FormValues = Record<FieldName, string>;

export interface FormSpec {
  kind: FormKind;
  /**
   * Spec §2: "Fields are disabled unless the DNI variant is on or the intent is OCR". Decision: the INE/OCR
   * form, the passport/migration form and the DNI form are editable (the data comes from our own OCR and
   * the user corrects misreads); the INE form with API checks is read-only: its values are checked against
   * the INE list as read from the card, and a misread is fixed by capturing again (CAPTURAR NUEVAMENTE).
   */
  editable: boolean;
  /** Spec §5: "INE/OCR and passport forms trim and uppercase all values". */
  upperCase: boolean;
  /** The identity number: CURP, or DNI in the DNI variant and on the DNI form. */
  idField: 'curp' | 'dni';
  /** INE validity is a year; passports, migration forms and DNIs carry a date (or PERMANENTE). */
  validity: 'vigencia' | 'vigenciaPasaporte';
  fields: readonly FieldName[];
}

export interface FormContext {
  ocrFront: OcrRecord | null;
  ocrBack: OcrRecord | null;
  params: readonly GrantorParam[] | null;
  /** Router state passport (a passport capture). */
  passport: boolean;
}

function flag(record: OcrRecord | null, key: string): boolean {
  const value = record?.[key];
  return value === true || (typeof value === 'string' && ['true', 'verdadero'].includes(value.trim().toLowerCase()));
}

/**
 * Spec §2: "One of four forms by document type: INE form with API checks (ENABLE_INE true and electoral ID),
 * INE/OCR form, DNI form (DNI variant), passport/migration form". Passports and migration forms first (by the
 * front's flags or the router state), then the DNI (a Peru DNI, or any ID in the DNI variant), then the INE.
 */
export function selectForm(ctx: FormContext): FormKind {
  const front = ctx.ocrFront;
  if (ctx.passport || flag(front, 'identificacionPasaporte') || flag(front, 'identificacionMigratoria')) return 'passport';
  if (flag(front, 'documentoNacionalPeru') || paramEnabled(ctx.params, 'VARIANTE_DNI')) return 'dni';
  if (paramEnabled(ctx.params, 'ENABLE_INE') && flag(front, 'identificacionElectoral')) return 'ineApi';
  return 'ineOcr';
}

export function formSpec(kind: FormKind, dniVariant: boolean): FormSpec {
  switch (kind) {
    case 'ineApi':
      return {
        kind,
        editable: false,
        upperCase: false,
        idField: 'curp',
        validity: 'vigencia',
        fields: ['nombreCompleto', 'fechaNacimiento', 'curp', 'clave', 'fechaRegistro', 'numeroEmision', 'cic', 'vigencia'],
      };
    case 'ineOcr':
      return {
        kind,
        editable: true,
        upperCase: true,
        idField: 'curp',
        validity: 'vigencia',
        fields: ['nombreCompleto', 'fechaNacimiento', 'curp', 'vigencia'],
      };
    case 'dni':
      return {
        kind,
        editable: true,
        upperCase: false,
        idField: 'dni',
        validity: 'vigenciaPasaporte',
        fields: ['nombreCompleto', 'fechaNacimiento', 'dni', 'vigenciaPasaporte'],
      };
    case 'passport': {
      const idField = dniVariant ? 'dni' : 'curp';
      return {
        kind,
        editable: true,
        upperCase: true,
        idField,
        validity: 'vigenciaPasaporte',
        fields: ['nombreCompleto', 'fechaNacimiento', idField, 'vigenciaPasaporte'],
      };
    }
  }
}

/** Input max lengths (docs/flow.md §5 limits; dates are 10 characters, as is PERMANENTE). */
export function maxLengthOf(name: FieldName): number | undefined {
  switch (name) {
    case 'fechaNacimiento':
    case 'vigenciaPasaporte':
      return 10;
    case 'nombreCompleto':
      return 120;
    default:
      return (fieldMaxLength as Partial<Record<FieldName, number>>)[name];
  }
}

function emptyValues(): FormValues {
  return {
    nombreCompleto: '',
    fechaNacimiento: '',
    clave: '',
    fechaRegistro: '',
    numeroEmision: '',
    cic: '',
    curp: '',
    dni: '',
    vigencia: '',
    vigenciaPasaporte: '',
  };
}

function fullName(front: OcrRecord | null): string {
  const read = ocrText(front, 'nombreCompleto').trim();
  if (read) return read;
  return ['nombres', 'apellidoPaterno', 'apellidoMaterno']
    .map((key) => ocrText(front, key).trim())
    .filter(Boolean)
    .join(' ');
}

/** A passport / DNI / migration-form validity as read: PERMANENTE, a DD/MM/YYYY date, or the raw text. */
function ocrValidityDate(front: OcrRecord | null, today: Date): string {
  if (flag(front, 'documentoPermanente')) return 'PERMANENTE';
  const raw = normaliseUpperTrim(ocrText(front, 'vigencia'));
  if (raw === '' || raw === 'PERMANENTE') return raw;
  const date = parseFlexibleDate(raw, today);
  return date ? formatDate(date) : raw;
}

function fit(name: FieldName, value: string): string {
  const max = maxLengthOf(name);
  return max === undefined ? value : value.slice(0, max);
}

/**
 * Pre-fill from the OCR reads with the docs/flow.md §5 normalisations: birth dates of 7 to 9 characters get their
 * century, a CURP shorter than 15 is dropped, the validity year is '20' plus its last two digits.
 */
export function prefill(spec: FormSpec, front: OcrRecord | null, back: OcrRecord | null, today: Date = new Date()): FormValues {
  const values = emptyValues();
  values.nombreCompleto = fullName(front);
  values.fechaNacimiento = normaliseOcrBirthDate(ocrText(front, 'fechaNacimiento'), today);
  values.curp = ocrCurpOrEmpty(ocrText(front, 'curp'));
  values.dni = ocrText(front, 'dni').trim();
  values.clave = ocrText(front, 'claveElector').trim();
  values.fechaRegistro = ocrText(front, 'anioRegistro').replace(/\D/g, '').slice(0, 4);
  // The two-digit emission number; the E/F models print the year issued at EMISIÓN ('2008'), which is no
  // emission number and is not cut to two digits (docs/decisions.md "The E/F layout from the issuer's specimen").
  const emision = ocrText(front, 'emision').trim();
  values.numeroEmision = /^\d{2}$/.test(emision) ? emision : '';
  values.cic = ocrText(back, 'cicMRZ').trim();
  values.vigencia = ocrValidityYear(ocrText(front, 'vigencia') || ocrText(back, 'ineVigencia'));
  values.vigenciaPasaporte = ocrValidityDate(front, today);
  for (const name of Object.keys(values) as FieldName[]) {
    const value = spec.upperCase ? finalValue(spec, name, values[name]) : values[name];
    values[name] = fit(name, value);
  }
  return values;
}

/** A typed value as the field keeps it: date masks, PERMANENTE, uppercase in the uppercase forms, max length. */
export function inputValue(spec: FormSpec, name: FieldName, raw: string): string {
  if (name === 'fechaNacimiento') return maskDate(raw);
  if (name === 'vigenciaPasaporte') {
    return /^\s*[A-Za-z]/.test(raw) ? fit(name, raw.toUpperCase().replace(/[^A-Z]/g, '')) : maskDate(raw);
  }
  if (spec.upperCase && name === 'curp') return trimCurp(raw);
  return fit(name, spec.upperCase ? raw.toUpperCase() : raw);
}

/** The value as saved: trimmed; uppercased (CURP cut to 18) in the uppercase forms. */
export function finalValue(spec: FormSpec, name: FieldName, value: string): string {
  if (!spec.upperCase) return value.trim();
  return name === 'curp' ? trimCurp(value) : normaliseUpperTrim(value);
}

export function finalValues(spec: FormSpec, values: FormValues): FormValues {
  const result = { ...values };
  for (const name of spec.fields) result[name] = finalValue(spec, name, values[name]);
  return result;
}

/** The field's docs/flow.md §5 message, or null. */
export function fieldError(name: FieldName, value: string): string | null {
  return validateField(name, value);
}

/** Whole-form validation on confirm: errors by field. */
export function formErrors(spec: FormSpec, values: FormValues): Partial<Record<FieldName, string>> {
  return validateForm(finalValues(spec, values), spec.fields) as Partial<Record<FieldName, string>>;
}

/** Spec §4 validity: INE year (>= this year, 31 Dec ahead); passport-like dates after today, PERMANENTE skips. */
export function validityOk(spec: FormSpec, values: FormValues, today: Date = new Date()): boolean {
  return spec.validity === 'vigencia' ? isIneValidityValid(values.vigencia, today) : isPassportValidityValid(values.vigenciaPasaporte, today);
}

/** Spec §5 clause-button rule: the identity number and the name. */
export function canContinue(spec: FormSpec, values: FormValues): boolean {
  return clauseButtonEnabled(values[spec.idField], values.nombreCompleto, spec.idField === 'dni');
}

export interface UserDatum {
  description: string;
  value: string;
  /** Typed by the person, not read from the ID (docs/flow.md §4 "No dead ends"). */
  typed?: boolean;
}

/**
 * Fields the reader could not read (empty, or a value the field's rule refuses): the person types them, even on
 * the read-only form, so that the only way on is never a field nobody can fill (docs/flow.md §4).
 */
export function unreadFields(spec: FormSpec, prefilled: FormValues): ReadonlySet<FieldName> {
  return new Set(spec.fields.filter((name) => prefilled[name].trim() === '' || fieldError(name, prefilled[name]) !== null));
}

export function isEditable(spec: FormSpec, unread: ReadonlySet<FieldName>, name: FieldName): boolean {
  return spec.editable || unread.has(name);
}

/** Fields whose confirmed value is not the one read: typed (or corrected) by the person. */
export function typedFields(spec: FormSpec, prefilled: FormValues, values: FormValues): FieldName[] {
  return spec.fields.filter((name) => finalValue(spec, name, values[name]) !== finalValue(spec, name, prefilled[name]));
}

/**
 * data_user entries (docs/flow.md §3): nombreCompleto, nacimiento, curp or dni, vigencia ('31/12/' + year for the
 * INE), each marked `typed` when the person typed it instead of confirming what was read.
 */
export function userDataOf(spec: FormSpec, values: FormValues, typed: readonly FieldName[] = []): UserDatum[] {
  const v = finalValues(spec, values);
  const mark = (name: FieldName) => (typed.includes(name) ? { typed: true } : {});
  return [
    { description: 'nombreCompleto', value: v.nombreCompleto, ...mark('nombreCompleto') },
    { description: 'nacimiento', value: v.fechaNacimiento, ...mark('fechaNacimiento') },
    { description: spec.idField, value: v[spec.idField], ...mark(spec.idField) },
    { description: 'vigencia', value: spec.validity === 'vigencia' ? storedValidity(v.vigencia) : v.vigenciaPasaporte, ...mark(spec.validity) },
  ];
}

/** Spec §7 INE call data: "{ocr, claveElector, numeroEmisionCredencial} when cic has 13 characters, else {cic}". */
export function ineCheckData(values: FormValues): { ocr: string; claveElector: string; numeroEmisionCredencial: string } | { cic: string } {
  const cic = values.cic.trim();
  return cic.length === 13 ? { ocr: cic, claveElector: values.clave.trim(), numeroEmisionCredencial: values.numeroEmision.trim() } : { cic };
}

/** Which checks run on confirm: Renapo for a CURP (ENABLE_RENAPO), the INE list for the INE form with API checks. */
export function checksToRun(spec: FormSpec, params: readonly GrantorParam[] | null): { renapo: boolean; ine: boolean } {
  return {
    renapo: spec.idField === 'curp' && paramEnabled(params, 'ENABLE_RENAPO'),
    ine: spec.kind === 'ineApi' && paramEnabled(params, 'ENABLE_INE'),
  };
}

/** Spec §7 Renapo body: uuid, turn -1, curp. */
export function renapoBody(uuid: string, values: FormValues): { uuid: string; turn: -1; curp: string } {
  return { uuid, turn: -1, curp: values.curp.trim() };
}

/** Spec §7 INE body: uuid, turn -1, data, fingerprint (indexLeft null, indexRight empty). */
export function ineBody(uuid: string, values: FormValues) {
  return { uuid, turn: -1 as const, data: ineCheckData(values), fingerprint: { indexLeft: null, indexRight: '' } };
}
