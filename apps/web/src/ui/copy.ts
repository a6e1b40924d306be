import { errorTexts } from '@kyc/contracts/texts';

/**
 * Screen texts (es-MX). Texts quoted from the spec are marked `spec`; the others are the project's own,
 * written where the spec only describes the content. The ID-capture screens' texts are in captureCopy.ts,
 * so that the entry route's chunk does not carry them.
 */
export const copy = {
  common: {
    loading: 'Cargando…',
    retry: 'REINTENTAR', // spec
    cancel: 'CANCELAR', // spec
    continue: 'CONTINUAR', // spec
    no: 'NO', // spec
    yes: 'SÍ', // spec (accent restored)
    folio: 'Folio de tu proceso',
    logoFallback: 'Inicio',
    // project: the server answered 503 (its engines' queue is full) and the client sends the call again (issue #17).
    busy: 'Hay muchas verificaciones en curso; seguimos intentando en unos segundos.',
  },
  lockout: {
    // project: the spec's lockout panel says no time; the person needs to know when to come back (issue #21).
    until: (time: string) => `Podrás intentarlo nuevamente a partir de las ${time} h.`,
  },
  entry: {
    title: 'Inicia tu pre-registro', // spec
    intro: 'Para completar tu pre-registro necesitarás:',
    requirementId: 'Una identificación oficial vigente: INE/IFE, pasaporte mexicano o documento migratorio.',
    requirementIdDni: 'Tu DNI (Documento Nacional de Identidad) vigente.',
    requirementCamera: 'Permitir el acceso a la cámara de tu dispositivo.',
    requirementConnection: 'Una buena conexión a internet.',
    start: 'EMPEZAR', // spec
    help: '¿Necesitas ayuda?',
    loadingParams: 'Estamos preparando tu proceso…',
    network: errorTexts.network, // docs/flow.md §8
  },
  terms: {
    dateLine: (city: string, date: string) => (city ? `${city}, a ${date}` : date),
    accept: 'He leído y acepto el contenido de este documento.',
    accepted: 'Registramos tu aceptación. Continuamos en un momento…',
    grantorFallback: 'el otorgante',
    userFallback: 'el usuario',
  },
  preparation: {
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
  },
  cancelDialog: {
    title: 'Cancelar proceso', // spec
    message: 'Si cancelas, no se guardará ningún dato y perderás el avance de tu proceso. Esta acción no se puede deshacer. ¿Deseas cancelar el proceso?',
    cancelling: 'Cancelando tu proceso…',
  },
  safari: {
    title: 'Configura tu navegador',
    intro: 'Para grabar tu video, Safari necesita tener activada la función MediaRecorder. Sigue estos pasos:',
    steps: [
      'Abre la aplicación Configuración de tu dispositivo y entra a Safari.',
      'Ve a Avanzado y después a Funciones experimentales (Feature Flags).',
      'Activa la opción MediaRecorder.',
      'Regresa a esta página y presiona RECARGAR.',
    ],
    openSettings: 'ABRIR CONFIGURACIÓN',
    reload: 'RECARGAR',
  },
  help: {
    title: 'Estamos para ti', // spec
    intro: 'Si tienes dudas o algún problema con tu proceso, comunícate con nosotros:',
    email: 'Correo electrónico',
    phone: 'Teléfono',
    chat: 'ABRIR CHAT',
    chatHint: 'Se abre en una ventana nueva.',
    noContact: 'Por el momento no hay datos de contacto disponibles.',
    close: 'CERRAR',
  },
  cancelled: {
    title: 'Proceso cancelado',
    message: 'Tu proceso fue cancelado. Si lo deseas, puedes intentarlo nuevamente.',
    reopen: 'INTENTAR NUEVAMENTE',
    restart: 'VOLVER AL INICIO',
  },
  notices: {
    rotate: errorTexts.rotate, // spec
    unsupportedTitle: 'Navegador no compatible',
    unsupported: errorTexts.unsupportedBrowser, // spec
    unsupportedHint: 'Te recomendamos usar Google Chrome o Microsoft Edge. En iPhone o iPad usa Safari.',
    cookiesTitle: errorTexts.cookiesTitle, // spec
    cookies: errorTexts.cookiesDisabled, // spec
    badUrlTitle: errorTexts.badUrlTitle, // spec
    badUrl: errorTexts.badUrl, // spec
    unexpectedTitle: 'Algo salió mal',
    unexpected: 'Ocurrió un error inesperado. Por favor intenta nuevamente.',
  },
} as const;
