import { errorTexts } from '@kyc/contracts/texts';

/**
 * Texts of the ID-capture side of the flow (/identificacion, /error_pantalla, /resultados_identificacion,
 * /holograma) and of the shared camera overlays. They live apart from copy.ts because only lazily loaded
 * steps use them: the entry route's chunk does not carry them. Texts quoted from the spec are marked `spec`;
 * the others are the project's own.
 */
export const captureCopy = {
  common: {
    continue: 'CONTINUAR', // spec
    cancel: 'CANCELAR', // spec
    retry: 'REINTENTAR', // spec
    understood: 'ENTENDIDO', // spec
  },
  intro: {
    title: 'Tómale una foto al frente de tu identificación', // spec
    surface: 'Colócala sobre una superficie oscura y lisa, con buena luz.',
    frame: 'Encuádrala dentro de la guía que verás en la pantalla, sin cortar ninguna de sus orillas.',
    glare: 'Evita reflejos: no uses flash ni la pongas bajo una luz directa.',
  },
  camera: {
    titleFront: 'Frente de tu identificación',
    titleBack: 'Reverso de tu identificación',
    titlePassport: 'Página de datos de tu pasaporte',
    hintFront: 'Coloca el frente de tu identificación dentro del recuadro.',
    hintBack: 'Voltea tu identificación y coloca el reverso dentro del recuadro.',
    hintPassport: 'Coloca la página de datos de tu pasaporte dentro del recuadro.',
    videoLabel: 'Vista de la cámara con la guía para tu identificación',
    starting: 'Abriendo la cámara…',
    captureFront: 'CAPTURAR FRENTE', // spec
    captureBack: 'CAPTURAR REVERSO', // spec
    processing: 'PROCESANDO...', // spec
    holdingStill: 'Mantén tu identificación quieta, estamos tomando la foto.',
    frontRead: 'Listo, leímos el frente. Ahora voltea tu identificación y captura el reverso.',
  },
  hold: {
    title: 'Sostén tu identificación con dos dedos',
    text: 'Sujétala por las orillas con dos dedos, sin tapar tus datos ni tu fotografía, y acércala a la cámara hasta que llene el recuadro.',
    start: 'ENTENDIDO EMPEZAR', // spec
  },
  quality: {
    title: 'Necesitamos otra foto',
    document: errorTexts.idFrontFailed, // docs/flow.md §8
    glare: 'Detectamos un reflejo sobre tu identificación. Aléjala de la luz directa o inclínala un poco.',
    blur: 'La foto salió borrosa. Mantén tu dispositivo firme y espera a que la imagen se vea nítida.',
    notSent: 'Esta foto no se envió ni contó como intento.',
    retake: 'CAPTURAR DE NUEVO', // spec
    useAnyway: 'USAR ESTA FOTO',
    useAnywayHint: 'Si tu identificación se ve completa y legible, puedes enviar esta foto; contará como un intento.',
    captureAlt: 'La foto que tomaste de tu identificación',
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
  errorScreen: {
    title: 'No pudimos leer tu identificación',
    /** The back refused: unreadable, or not the back of the card whose front was read (docs/flow.md §4). */
    titleBack: 'No pudimos usar el reverso de tu identificación',
    tipsTitle: 'Para una mejor captura:',
    tipDark: 'Coloca tu identificación sobre un fondo oscuro.',
    tipFocus: 'Mantenla dentro del recuadro y espera a que se vea enfocada.',
    tipGlare: 'Evita reflejos y brillos sobre tu identificación.',
    attemptsLeft: (n: number) => (n === 1 ? 'Te queda 1 intento.' : `Te quedan ${n} intentos.`),
    recapture: 'Capturar nuevamente', // spec
    cancel: 'Cancelar', // spec
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
  results: {
    title: 'Verifica tu información', // spec
    introEditable: 'Revisa que tus datos coincidan con tu identificación y corrígelos si es necesario.',
    introReadOnly: 'Estos son los datos que leímos de tu identificación. Si alguno no es correcto, captúrala nuevamente.',
    introReadOnlyUnread: 'Estos son los datos que leímos de tu identificación. Escribe los que no pudimos leer; si alguno no es correcto, captúrala nuevamente.',
    unreadHint: 'No pudimos leer este dato: escríbelo tal como aparece en tu identificación.',
    labels: {
      nombreCompleto: 'Nombre completo',
      fechaNacimiento: 'Fecha de nacimiento',
      clave: 'Clave de elector',
      fechaRegistro: 'Año de registro',
      numeroEmision: 'Número de emisión',
      cic: 'CIC u OCR',
      curp: 'CURP',
      dni: 'DNI',
      vigencia: 'Vigencia (año)',
      vigenciaPasaporte: 'Vigencia',
    },
    hints: {
      fechaNacimiento: 'Formato dd/mm/aaaa',
      vigenciaPasaporte: 'Formato dd/mm/aaaa, o PERMANENTE',
    },
    fixErrors: 'Revisa los campos marcados.',
    continue: 'CONTINUAR', // spec
    recapture: 'CAPTURAR NUEVAMENTE', // spec
    saving: 'Guardando tus datos…',
    noRead: 'No encontramos la lectura de tu identificación. Captúrala para continuar.',
    invalidTitle: errorTexts.invalidValidityTitle, // spec
    invalidText: errorTexts.invalidValidity, // spec
    terminate: 'TERMINAR', // spec
  },
  hologram: {
    title: 'Calibra tu identificación',
    intro: 'Vamos a grabar unos segundos tu identificación para revisar su holograma.',
    steps: ['Coloca tu identificación en el centro del recuadro.', 'Presiona CAPTURAR Y CALIBRAR.', 'Mueve tu dispositivo lentamente de un lado a otro, para que la luz pase sobre el holograma.'],
    calibrate: 'CALIBRAR', // spec
    captureCalibrate: 'CAPTURAR Y CALIBRAR', // spec
    calibrating: 'CALIBRANDO ...', // spec
    cameraHint: 'Coloca tu identificación dentro del recuadro y presiona CAPTURAR Y CALIBRAR.',
    recording: 'Grabando: mueve tu dispositivo lentamente de un lado a otro.',
    sending: 'Enviando la calibración…',
    done: 'Calibración lista.',
    failed: 'No pudimos calibrar tu identificación. Intenta de nuevo.',
    unsupported: 'Tu navegador no permite grabar video, así que continuaremos sin la calibración.',
    videoLabel: 'Vista de la cámara para calibrar tu identificación',
  },
} as const;
