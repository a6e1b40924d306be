import type { ProofReadingWire } from '@kyc/contracts';
import { fieldMaxLength, validateField } from '@kyc/contracts/rules';
import type { OcrRecord } from '../../session/idCapture';
import type { UserDatum } from '../../session/userData';

/** The address form of docs/flow.md §2 "Address confirmation" (step datos_direccion_ocr_page). */
export const addressFields = ['codigoPostal', 'pais', 'estado', 'delegacion', 'colonia', 'otraColonia', 'calle', 'numeroExterior', 'numeroInterior'] as const;
export type AddressField = (typeof addressFields)[number];
export type AddressValues = Record<AddressField, string>;

/** The dropdown's 'Otro' entry: choosing it reveals otraColonia. */
export const otherSettlement = 'Otro';
export const defaultCountry = 'México';

export interface Settlement {
  asentamiento: string;
  municipio: string;
  estado: string;
}

/**
 * colonia is free text when OCR filled it; otherwise a dropdown of the postal code's settlements plus 'Otro'
 * (docs/flow.md §2). 'text' also covers the case where no lookup has answered yet.
 */
export type ColoniaMode = { kind: 'text' } | { kind: 'select'; options: string[] };

export interface AddressForm {
  values: AddressValues;
  colonia: ColoniaMode;
  /** Which source pre-filled the form. */
  source: 'comprobante' | 'identificacion' | 'none';
  /**
   * The postal code that estado, delegacion and colonia belong to: the pre-filled code, then the code the catalogue
   * answered for, or the code the person typed them for. GUARDAR waits until it is the form's code, so a saved
   * address never mixes one document's place with another postal code.
   */
  placeCode: string;
}

const empty: AddressValues = {
  codigoPostal: '',
  pais: defaultCountry,
  estado: '',
  delegacion: '',
  colonia: '',
  otraColonia: '',
  calle: '',
  numeroExterior: '',
  numeroInterior: '',
};

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** Digits only, at most 5 (docs/flow.md §5 codigoPostal: max length 5). */
export function postalCodeInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, fieldMaxLength.codigoPostal);
}

/** The INE prints the exterior number after the street ('C MORELOS 123 INT 4'); ocrFront carries it as numero. */
function splitNumber(numero: string): { numeroExterior: string; numeroInterior: string } {
  const m = /^(\S+?)(?:\s*(?:INT\.?|INTERIOR)\s*(\S+))?$/i.exec(numero.trim());
  return m ? { numeroExterior: m[1] ?? '', numeroInterior: m[2] ?? '' } : { numeroExterior: numero.trim(), numeroInterior: '' };
}

/**
 * Initial values: the proof-of-address reading when there is a legible one, else the ID front's address
 * (ocrFront calle, numero, colonia, cp, municipio, estado). colonia is free text when OCR filled it.
 */
export function initialAddress(reading: ProofReadingWire | null, front: OcrRecord | null): AddressForm {
  if (reading?.leido) {
    const values: AddressValues = {
      ...empty,
      codigoPostal: postalCodeInput(reading.codigoPostal ?? ''),
      estado: reading.estado ?? '',
      delegacion: reading.delegacion ?? '',
      colonia: reading.colonia ?? '',
      calle: reading.calle ?? '',
      numeroExterior: reading.numeroExterior ?? '',
      numeroInterior: reading.numeroInterior ?? '',
    };
    return { values, colonia: { kind: 'text' }, source: 'comprobante', placeCode: values.codigoPostal };
  }
  if (front) {
    const numbers = splitNumber(text(front.numero));
    const values: AddressValues = {
      ...empty,
      codigoPostal: postalCodeInput(text(front.cp)),
      estado: text(front.estado),
      delegacion: text(front.municipio),
      colonia: text(front.colonia),
      calle: text(front.calle),
      ...numbers,
    };
    const any = [values.codigoPostal, values.estado, values.delegacion, values.colonia, values.calle].some((v) => v !== '');
    return { values, colonia: { kind: 'text' }, source: any ? 'identificacion' : 'none', placeCode: values.codigoPostal };
  }
  return { values: { ...empty }, colonia: { kind: 'text' }, source: 'none', placeCode: '' };
}

/** Spec §4: the lookup fires when the code is exactly 5 characters and was edited by the user. */
export function shouldLookUp(previous: string, next: string, userEdited: boolean): boolean {
  return userEdited && next !== previous && /^\d{5}$/.test(next);
}

/**
 * The form's postal code is not in the catalogue (or could not be looked up): state, municipality and colonia that
 * belong to another code are emptied for the person to type; those of this very code are kept.
 */
export function placeUnknown(form: AddressForm): AddressForm {
  const code = form.values.codigoPostal;
  if (form.placeCode === code) return form;
  return { ...form, values: { ...form.values, estado: '', delegacion: '', colonia: '', otraColonia: '' }, colonia: { kind: 'text' }, placeCode: code };
}

/**
 * A lookup's answer for the form's postal code: one settlement fills colonia (and municipality and state); several
 * fill the dropdown with 'Otro' (keeping the current colonia selected when it is one of them); none empties a place
 * that belongs to another code (placeUnknown).
 */
export function applyLookup(form: AddressForm, settlements: readonly Settlement[]): AddressForm {
  if (settlements.length === 0) return placeUnknown(form);
  const first = settlements[0]!;
  const place = { delegacion: first.municipio, estado: first.estado };
  const placeCode = form.values.codigoPostal;
  if (settlements.length === 1) {
    return { ...form, values: { ...form.values, ...place, colonia: first.asentamiento, otraColonia: '' }, colonia: { kind: 'text' }, placeCode };
  }
  const options = [...new Set(settlements.map((s) => s.asentamiento))];
  const current = options.find((o) => sameName(o, form.values.colonia));
  return {
    ...form,
    values: { ...form.values, ...place, colonia: current ?? '', otraColonia: '' },
    colonia: { kind: 'select', options: [...options, otherSettlement] },
    placeCode,
  };
}

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

function sameName(a: string, b: string): boolean {
  return a !== '' && b !== '' && fold(a) === fold(b);
}

/** The fields that count for this form state: otraColonia only when 'Otro' is chosen. */
export function activeFields(form: AddressForm): AddressField[] {
  const other = form.colonia.kind === 'select' && form.values.colonia === otherSettlement;
  return addressFields.filter((name) => name !== 'otraColonia' || other);
}

export function fieldError(name: AddressField, value: string): string | null {
  return validateField(name, value);
}

export function formErrors(form: AddressForm): Partial<Record<AddressField, string>> {
  const errors: Partial<Record<AddressField, string>> = {};
  for (const name of activeFields(form)) {
    const error = fieldError(name, form.values[name]);
    if (error !== null) errors[name] = error;
  }
  return errors;
}

/** GUARDAR is enabled only when every field is valid (docs/flow.md §2) and the place belongs to the postal code. */
export function formValid(form: AddressForm): boolean {
  return Object.keys(formErrors(form)).length === 0 && form.placeCode === form.values.codigoPostal;
}

/** data_user entries of docs/flow.md §3: the address fields, colonia resolved from 'Otro', calleCompleta = street + number. */
export function addressUserData(form: AddressForm): UserDatum[] {
  const v = Object.fromEntries(Object.entries(form.values).map(([k, value]) => [k, value.trim()])) as AddressValues;
  const colonia = form.colonia.kind === 'select' && v.colonia === otherSettlement ? v.otraColonia : v.colonia;
  return [
    { description: 'codigoPostal', value: v.codigoPostal },
    { description: 'pais', value: v.pais },
    { description: 'estado', value: v.estado },
    { description: 'delegacion', value: v.delegacion },
    { description: 'colonia', value: colonia },
    { description: 'calle', value: v.calle },
    { description: 'numeroExterior', value: v.numeroExterior },
    { description: 'numeroInterior', value: v.numeroInterior },
    { description: 'calleCompleta', value: `${v.calle} ${v.numeroExterior}`.trim() },
  ];
}
