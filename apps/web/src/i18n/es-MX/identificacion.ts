import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /identificacion (the ID capture; the shared overlays are in capture.ts). `spec` marks the spec's own words. */
export const texts = {
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
    captureFront: 'CAPTURAR FRENTE', // spec
    captureBack: 'CAPTURAR REVERSO', // spec
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
  /** What a refused or failed read shows when the server names nothing (docs/flow.md §8). */
  errors: {
    unreadable: errorTexts.idUnreadable,
    front: errorTexts.idFrontFailed,
    back: errorTexts.idBackFailed,
    network: errorTexts.networkBlock,
    attemptsExceeded: errorTexts.attemptsExceeded,
  },
} as const;
