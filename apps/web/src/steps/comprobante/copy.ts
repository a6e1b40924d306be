import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /preparacion_comprobante and /comprobante; `spec` marks the ones quoted from the spec. */
export const proofCopy = {
  preparation: {
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
  },
  camera: {
    title: 'Captura tu comprobante',
    hint: 'Coloca tu comprobante dentro del recuadro, con tu nombre y dirección visibles.',
    glare: 'Evita reflejos: si ves brillos sobre el texto, inclina un poco el papel.',
    videoLabel: 'Vista de la cámara con la guía para tu comprobante',
    capture: 'CAPTURAR COMPROBANTE', // spec
    processing: 'PROCESANDO...', // spec
    cancel: 'CANCELAR', // spec
    holdingStill: 'Mantén el comprobante quieto, estamos tomando la foto.',
  },
  preview: {
    title: 'Revisa tu foto',
    intro: '¿Se leen tu nombre y tu dirección?',
    imageAlt: 'La foto de tu comprobante de domicilio',
    confirm: 'ENVIAR',
    retake: 'CAPTURAR DE NUEVO',
  },
  sending: 'Estamos leyendo tu comprobante…',
  unreadable: {
    title: 'No pudimos leer tu comprobante',
    message: errorTexts.proofRetry, // docs/flow.md §8
    attemptsLeft: (n: number) => (n === 1 ? 'Te queda 1 intento.' : `Te quedan ${n} intentos.`),
    retry: 'VOLVER A INTENTAR', // spec
  },
} as const;
