/** Spec §5 field messages and the front-data reasons, verbatim (Spanish, accents included). */
export const messages = {
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
} as const;

export type MessageKey = keyof typeof messages;
export type Message = (typeof messages)[MessageKey];
