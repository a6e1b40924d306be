/** Texts of /finalizado (the result and the final screens). `spec` marks the spec's own words. */
export const texts = {
  thanks: 'Muchas Gracias', // spec
  failedTitle: 'Proceso no exitoso', // spec
  scoring: 'Estamos revisando el resultado de tu proceso…',
  green: 'Tu solicitud está completa. Te enviaremos el resultado de tu proceso al correo electrónico que registres.',
  yellow: 'Nuestro equipo está procesando tu solicitud. En las próximas horas te enviaremos el resultado al correo electrónico que registres.',
  red: 'Tu proceso no fue aceptado. Revisa que tus documentos estén vigentes y se vean legibles.',
  contact: 'Si tienes dudas, comunícate con nosotros:',
  email: 'Correo electrónico',
  emailHint: 'Te enviaremos ahí el reporte de tu proceso.',
  phone: 'Teléfono',
  folio: 'Folio de tu proceso',
  finish: 'TERMINAR', // spec
  back: 'REGRESAR', // spec
  confirmTitle: 'Confirma tu correo electrónico',
  confirmMessage: (email: string) => `Enviaremos el reporte de tu proceso al correo ${email}. ¿Es correcto?`,
  sending: 'Enviando tu resultado…',
  sent: 'Enviamos tu resultado. Gracias.',
  sentTitle: 'Resultado enviado',
  sentTo: (email: string) => `Enviamos el resultado de tu proceso a ${email}. Revisa tu bandeja de entrada y, si no lo encuentras, la carpeta de correo no deseado.`,
  emailFailed: 'No pudimos enviar tu resultado. Revisa tu correo electrónico e intenta nuevamente.',
  concluded: 'Tu proceso ha concluido.',
  backToOrigin: 'Volver al origen', // spec
  understood: 'ENTENDIDO', // spec
} as const;
