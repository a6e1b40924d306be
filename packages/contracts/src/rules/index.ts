export { messages, type Message, type MessageKey } from './messages.js';
export { limits, fieldMaxLength } from './limits.js';
export { normaliseUpperTrim, trimCurp } from './normalise.js';
export {
  type DateParts,
  isCalendarDate,
  fullYearFromTwoDigits,
  parseStrictDate,
  parseFlexibleDate,
  formatDate,
  isAfterToday,
  maskDate,
} from './dates.js';
export {
  curpStateCodes,
  curpSexCodes,
  type CurpState,
  type CurpSex,
  isCurpFormat,
  curpCheckDigit,
  isCurpCheckDigitValid,
  curpBirthDate,
  curpSex,
  curpState,
  curpNameParticles,
  curpSkippedGivenNames,
  curpInconvenientWords,
  curpNameWords,
  curpGivenName,
  curpNameParts,
  enyeToX,
  firstInner,
} from './curp.js';
export {
  type Validator,
  type ValidatedFieldName,
  nombreCompleto,
  fechaNacimiento,
  curp,
  vigencia,
  vigenciaPasaporte,
  dni,
  codigoPostal,
  required,
  optional,
  fieldValidators,
  validateField,
  validateForm,
} from './fields.js';
export { normaliseOcrBirthDate, ocrCurpOrEmpty, ocrValidityYear } from './ocr-normalise.js';
export { type FrontData, type FrontDataCheck, frontDataCheck } from './front-data.js';
export { clauseButtonEnabled } from './clause.js';
export { isIneValidityValid, isPassportValidityValid, storedValidity } from './validity.js';
export { documentTypes, type DocumentType, type DocumentFlags, documentType } from './document-type.js';
export { isTruthyParam, isFalso } from './flags.js';
export { type Point, type Quad, type Matrix3, unitSquareToQuad, applyHomography, invert3 } from './plane.js';
