/** Texts of /preparacion_identificacion. `spec` marks the spec's own words. */
export const texts = {
  title: 'Prepara tu identificación',
  tipsTitle: 'Antes de empezar, revisa que:',
  tipCurrent: 'Tu identificación esté vigente.',
  tipSharp: 'La imagen se vea nítida, sin partes borrosas.',
  tipGlare: 'No haya reflejos ni brillos sobre la identificación.',
  allowedTitle: 'Identificaciones aceptadas:',
  allowedIne: 'INE o IFE',
  allowedFm: 'Forma migratoria (FM)',
  allowedPassport: 'Pasaporte mexicano',
  allowedDni: 'DNI (Documento Nacional de Identidad)',
  capture: 'CAPTURAR IDENTIFICACIÓN', // spec
} as const;
