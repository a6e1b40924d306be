/**
 * Texts of the clause and authorization steps (clausula, validacion_documento, autorizacion_solicitud,
 * autorizacion_documento: one set of screens in steps/clausula/). `spec` marks the spec's own words.
 */
export const texts = {
  clausula: {
    title: 'Uso de medios electrónicos',
    intro: 'Para continuar con tu solicitud necesitamos que leas y aceptes la cláusula de uso de medios electrónicos.',
    detail: 'Con ella aceptas que tu identificación, tu video y tu aceptación en esta página tengan la misma validez que tu firma en papel.',
  },
  autorizacion: {
    title: 'Autorización',
    intro: 'Para terminar tu solicitud necesitamos que leas y aceptes la autorización para verificar tu información.',
    detail: 'Con ella autorizas la verificación de tu identidad y la consulta de tu información crediticia.',
  },
  read: 'LEER DOCUMENTO', // spec
  version: (version: string) => `Versión ${version}`,
  accept: 'He leído y acepto el contenido de este documento.',
  accepted: 'Registramos tu aceptación. Continuamos en un momento…',
  userFallback: 'el usuario',
} as const;
