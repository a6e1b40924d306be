import { errorTexts } from '@kyc/contracts/texts';

/** Texts of the face video. Texts quoted from the spec are marked `spec`; the others are the project's own. */
export const faceCopy = {
  title: 'Confirmación de identidad', // spec
  intro: 'Grabaremos un video corto de tu rostro mientras lees en voz alta un código de 4 números.',
  tipsTitle: 'Antes de empezar:',
  tips: {
    glasses: 'No uses lentes.',
    cap: 'No uses gorra ni sombrero.',
    mask: 'Retira tu cubrebocas.',
    backlight: 'Evita la luz de fondo (contraluz).',
  },
  permissions: 'Te pediremos permiso para usar tu cámara y tu micrófono. Busca un lugar tranquilo y sin ruido.',
  continue: 'CONTINUAR', // spec
  cancel: 'CANCELAR', // spec
  videoLabel: 'Vista de tu cámara frontal con la guía para tu rostro',
  position: 'Ubica tu rostro de frente para empezar', // spec
  photo: 'No te muevas, estamos tomando una foto de tu rostro.',
  token: 'Estamos preparando tu código…',
  stability: 'Mantén tu rostro quieto dentro del óvalo.',
  read: 'Lee cada número en voz alta y claro conforme aparezca',
  digitLabel: (index: number, total: number) => `Número ${index} de ${total}`,
  done: 'Lectura terminada',
  // project: motion prompts (MOVIMIENTOS_VIDEO_TOKEN), not in the spec; the person's own side (the preview is mirrored).
  turn: { left: 'Ahora gira la cabeza hacia tu izquierda', right: 'Ahora gira la cabeza hacia tu derecha' },
  processing: 'Procesando, gracias por tu paciencia', // spec
  matched: 'Listo, confirmamos tu identidad.',
  errorTitle: 'Lo sentimos', // spec
  errorCancel: 'Cancelar', // spec
  errorRetry: 'Reintentar', // spec
  errorRestart: 'Reiniciar', // spec
  attemptsLeft: (left: number) => (left === 1 ? 'Te queda 1 intento.' : `Te quedan ${left} intentos.`),
  attemptsExceeded: errorTexts.attemptsExceeded, // spec
} as const;
