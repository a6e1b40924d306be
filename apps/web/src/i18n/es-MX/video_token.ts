import { errorTexts, faceMessages } from '@kyc/contracts/texts';

/** Texts of the face video (/video_token and /pdf_video_token). `spec` marks the spec's own words. */
export const texts = {
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
  /** The 'Lo sentimos' dialog's messages when the server names none (docs/flow.md §8). */
  errors: {
    network: errorTexts.network,
    watchdog: errorTexts.watchdog,
    serviceUnavailable: errorTexts.serviceUnavailable,
    noMatch: errorTexts.noMatchClient,
  },
  /** The face step's messages of docs/flow.md §8, shown as the server names them (the hints below go with them). */
  messages: faceMessages,
  /** docs/flow.md §8 "Video token request failures". */
  tokenFailure: 'Ubica tu rostro en el area marcada',
  /** Hints of docs/flow.md §8 for the face step's server messages (the spec describes them; the wording is ours). */
  hints: {
    noFace: 'Busca un lugar con luz menos directa y centra tu rostro en el área marcada.',
    mask: 'Retira el objeto que cubre tu rostro y vuelve a capturar.',
    badLight: 'Busca un lugar con luz menos directa.',
    blurry: 'Limpia la cámara de tu dispositivo y mantenlo firme.',
    multipleFaces: 'Asegúrate de que solo tu rostro aparezca en la cámara.',
    lowLight: 'Busca un lugar con más luz.',
    comparisonFailed: 'Centra tu rostro en el área marcada y vuelve a intentar.',
    phrase: 'Lee cada número en voz alta y claro.',
    connection: 'Verifica tu conexión a internet.',
    token: 'Retira cubrebocas, lentes y gorra, y evita la luz de fondo.',
  },
} as const;
