/** Texts of /terminos (the terms document and its acceptance). */
export const texts = {
  dateLine: (city: string, date: string) => (city ? `${city}, a ${date}` : date),
  accept: 'He leído y acepto el contenido de este documento.',
  accepted: 'Registramos tu aceptación. Continuamos en un momento…',
  grantorFallback: 'el otorgante',
  userFallback: 'el usuario',
} as const;
