import { errorTexts } from '@kyc/contracts/texts';

/**
 * Texts of the camera overlays that several lazily loaded capture steps share (ID, proof of address, face video,
 * hologram): the crop and review screens, the analysis checklist, the network-retry and camera-error notices, the
 * 'Proceso no exitoso' screen. Kept out of common.ts so that the entry route's chunk does not carry them.
 * `spec` marks the spec's own words.
 */
export const texts = {
  common: {
    continue: 'CONTINUAR', // spec
    cancel: 'CANCELAR', // spec
    retry: 'REINTENTAR', // spec
    understood: 'ENTENDIDO', // spec
  },
  camera: {
    starting: 'Abriendo la cámara…',
    processing: 'PROCESANDO...', // spec
  },
  adjust: {
    title: 'Ajusta tu identificación/comprobante', // spec
    intro: 'Mueve el recuadro y sus esquinas para que tu identificación quede completa, con el menor fondo posible.',
    cropLabel: 'Área de recorte',
    keys: 'Con el teclado: flechas para mover el recuadro, Mayúsculas y flechas para cambiar su tamaño, Alt para pasos más grandes.',
    imageAlt: 'Tu captura, para ajustar el recorte',
    done: 'AJUSTE LISTO', // spec
    retake: 'CAPTURAR DE NUEVO', // spec
    preparing: 'Preparando la imagen…',
  },
  verify: {
    title: 'Revisa tu captura',
    intro: 'Comprueba que se lean todos los datos y que no haya reflejos.',
    imageAlt: 'Tu identificación recortada',
    confirm: 'Confirmo que la captura es clara y los datos legibles.', // spec
    save: 'GUARDAR', // spec
    retake: 'CAPTURAR DE NUEVO', // spec
  },
  analysis: {
    titleFront: 'Analizando el frente de tu identificación',
    titleBack: 'Analizando el reverso de tu identificación',
    items: {
      document: 'Identificando el documento',
      borders: 'Detectando los bordes',
      face: 'Buscando el rostro',
      mrz: 'Leyendo la zona de lectura mecánica',
      text: 'Detectando el texto',
      data: 'Extrayendo los datos',
    },
    status: { done: 'listo', active: 'en proceso', pending: 'pendiente' },
    sending: (percent: number | null) => (percent === null ? 'Enviando la imagen…' : `Enviando la imagen: ${percent} %`),
    sent: 'Imagen enviada. Estamos leyendo tus datos…',
    read: 'Lectura completa.',
  },
  network: {
    title: 'Sin conexión',
    message: errorTexts.networkBlock, // docs/flow.md §8
    resend: 'REINTENTAR',
    retake: 'CAPTURAR DE NUEVO', // spec
  },
  /** The capture tips of /error_pantalla and of the ID capture's quality screen. */
  tips: {
    tipsTitle: 'Para una mejor captura:',
    tipDark: 'Coloca tu identificación sobre un fondo oscuro.',
    tipFocus: 'Mantenla dentro del recuadro y espera a que se vea enfocada.',
    tipGlare: 'Evita reflejos y brillos sobre tu identificación.',
  },
  failed: {
    title: 'Proceso no exitoso', // spec
    message: errorTexts.attemptsExceeded, // docs/flow.md §8
    folio: 'Folio de tu proceso',
    contact: 'Si necesitas ayuda, comunícate con nosotros:',
    email: 'Correo electrónico',
    phone: 'Teléfono',
    understood: 'ENTENDIDO', // spec
  },
  cameraError: {
    title: 'No pudimos usar tu cámara',
    inUse: 'Es posible que tu cámara esté abierta en otra pestaña o aplicación. Ciérrala y presiona REINTENTAR.',
    permission: 'Necesitamos permiso para usar tu cámara. Para darlo:',
    permissionSteps: ['Toca el ícono del candado o de la cámara junto a la dirección de esta página.', 'Permite el acceso a la cámara para este sitio.', 'Presiona REINTENTAR.'],
    retry: 'REINTENTAR', // spec
  },
} as const;
