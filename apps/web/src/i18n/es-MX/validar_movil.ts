/** Texts of /validar_movil (the mobile number). `spec` marks the spec's own words. */
export const texts = {
  title: 'Autorizaste la consulta de tu historial crediticio',
  intro: 'Un asesor debe validar tu solicitud. Para contactarte, ingresa tu número de teléfono celular y te enviaremos un código de verificación por SMS.',
  label: 'Número de celular',
  hint: (digits: number) => `${digits} dígitos, sin espacios.`,
  continue: 'CONTINUAR', // spec
  sending: 'Enviando el código…',
  sendFailed: 'No pudimos enviar el código. Revisa tu número e intenta nuevamente.',
} as const;
