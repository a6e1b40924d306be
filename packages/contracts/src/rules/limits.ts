/** Spec §5 and §9 length rules. */
export const limits = {
  nameMinLength: 10,
  curpLength: 18,
  frontCurpMinLength: 16,
  dniMinLength: 3,
  dniMaxLength: 19,
  clauseSecondMinLength: 10,
  postalCodeLength: 5,
  validityYearLength: 4,
  ocrCurpMinLength: 15,
} as const;

/** Spec §5 input max lengths (curp allows 19 while typing; the CURP itself is 18). */
export const fieldMaxLength = {
  clave: 20,
  fechaRegistro: 4,
  numeroEmision: 2,
  cic: 13,
  vigencia: 4,
  curp: 19,
  dni: 19,
  codigoPostal: 5,
} as const;
