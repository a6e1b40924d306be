/** Texts of /consulta_historial (the credit-history consent). */
export const texts = {
  accept: 'He leído y acepto la consulta de mi historial crediticio.',
  accepted: 'Registramos tu autorización. Continuamos en un momento…',
} as const;
