import { isCurpFormat } from './curp.js';
import { parseStrictDate } from './dates.js';
import { limits } from './limits.js';
import { messages } from './messages.js';
import { normaliseUpperTrim } from './normalise.js';

/** null when valid, else the exact spec message. Every validator ignores surrounding spaces. */
export type Validator = (value: string) => string | null;

const nameCharacters = /^[A-Za-zÁÉÍÓÚáéíóúÜüÑñ ]+$/;

export const nombreCompleto: Validator = (value) => {
  const name = value.normalize('NFC').trim();
  if (name === '') return messages.required;
  return [...name].length >= limits.nameMinLength && nameCharacters.test(name) ? null : messages.invalidName;
};

export const fechaNacimiento: Validator = (value) => {
  const date = value.trim();
  if (date === '') return messages.required;
  return parseStrictDate(date) ? null : messages.invalidDate;
};

/** Case-insensitive: the forms uppercase the CURP before saving (trimCurp). */
export const curp: Validator = (value) => {
  const normalised = normaliseUpperTrim(value);
  if (normalised === '') return messages.required;
  return isCurpFormat(normalised) ? null : messages.invalidCurp;
};

/** Non-digits are reported before the length: '20a' is a format error, not a short year. */
export const vigencia: Validator = (value) => {
  const year = value.trim();
  if (year === '') return messages.required;
  if (!/^\d+$/.test(year)) return messages.invalidValidity;
  return year.length === limits.validityYearLength ? null : messages.yearDigits;
};

export const vigenciaPasaporte: Validator = (value) => {
  const normalised = normaliseUpperTrim(value);
  if (normalised === '') return messages.required;
  if (normalised === 'PERMANENTE') return null;
  return parseStrictDate(normalised) ? null : messages.invalidDate;
};

const dniPattern = new RegExp(`^[A-Za-z0-9]{${limits.dniMinLength},${limits.dniMaxLength}}$`);

export const dni: Validator = (value) => (dniPattern.test(value.trim()) ? null : messages.invalidDni);

export const codigoPostal: Validator = (value) => {
  const code = value.trim();
  if (code === '') return messages.required;
  return /^\d+$/.test(code) && code.length === limits.postalCodeLength ? null : messages.invalidPostalCode;
};

export const required: Validator = (value) => (value.trim() === '' ? messages.required : null);

export const optional: Validator = () => null;

export const fieldValidators = {
  nombreCompleto,
  fechaNacimiento,
  curp,
  vigencia,
  vigenciaPasaporte,
  dni,
  codigoPostal,
  pais: required,
  estado: required,
  delegacion: required,
  colonia: required,
  otraColonia: required,
  calle: required,
  numeroExterior: required,
  numeroInterior: optional,
} as const satisfies Record<string, Validator>;

export type ValidatedFieldName = keyof typeof fieldValidators;

/** Fields without a spec rule (clave, cic, ...) are valid: only their input max length applies. */
export function validateField(name: string, value: string): string | null {
  if (!Object.hasOwn(fieldValidators, name)) return null;
  return fieldValidators[name as ValidatedFieldName](value);
}

/** Errors by field name for the listed fields; a missing value counts as ''. Empty when valid. */
export function validateForm(fields: Record<string, string>, fieldNames: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const name of fieldNames) {
    const error = validateField(name, fields[name] ?? '');
    if (error !== null) errors[name] = error;
  }
  return errors;
}
