import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /comprobante (the proof of address capture). `spec` marks the spec's own words. */
export const texts = {
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
