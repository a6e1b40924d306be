/** Texts of /ayuda/:ruta. `spec` marks the spec's own words. */
export const texts = {
  title: 'Estamos para ti', // spec
  intro: 'Si tienes dudas o algún problema con tu proceso, comunícate con nosotros:',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  chat: 'ABRIR CHAT',
  chatHint: 'Se abre en una ventana nueva.',
  noContact: 'Por el momento no hay datos de contacto disponibles.',
  close: 'CERRAR',
} as const;
