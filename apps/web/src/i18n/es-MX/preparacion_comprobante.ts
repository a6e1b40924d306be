/** Texts of /preparacion_comprobante. `spec` marks the spec's own words. */
export const texts = {
  title: 'Comprobante de domicilio',
  intro: 'Envíanos una foto de un comprobante de domicilio a tu nombre, de los últimos meses.',
  acceptedTitle: 'Puede ser un recibo de:',
  accepted: ['Luz', 'Teléfono fijo', 'Internet', 'Gas'],
  tipsTitle: 'Para una buena foto:',
  tipWhole: 'Que se vea la hoja completa, con tu nombre y tu dirección.',
  tipFlat: 'Colócalo sobre una superficie plana, con buena luz.',
  tipGlare: 'Evita reflejos: no uses flash.',
  capture: 'CAPTURAR', // spec
  cancel: 'CANCELAR', // spec
} as const;
