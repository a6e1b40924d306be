import { errorTexts } from '@kyc/contracts/texts';

/**
 * Texts shared by every step and by the shell (buttons, notices, the cancel dialog, the lockout panel). This module is
 * in the entry route's chunk: keep it to what the shell and most steps show. `spec` marks the spec's own words.
 */
export const texts = {
  loading: 'Cargando…',
  retry: 'REINTENTAR', // spec
  cancel: 'CANCELAR', // spec
  continue: 'CONTINUAR', // spec
  understood: 'ENTENDIDO', // spec
  no: 'NO', // spec
  yes: 'SÍ', // spec (accent restored)
  folio: 'Folio de tu proceso',
  logoFallback: 'Inicio',
  // project: the server answered 503 (its engines' queue is full) and the client sends the call again (issue #17).
  busy: 'Hay muchas verificaciones en curso; seguimos intentando en unos segundos.',
  /** docs/flow.md §8: no answer from the service. */
  network: errorTexts.network,
  lockout: {
    title: 'Proceso no exitoso', // spec
    message: errorTexts.attemptsExceeded, // docs/flow.md §8
    // project: the spec's lockout panel says no time; the person needs to know when to come back (issue #21).
    until: (time: string) => `Podrás intentarlo nuevamente a partir de las ${time} h.`,
  },
  cancelDialog: {
    title: 'Cancelar proceso', // spec
    message: 'Si cancelas, no se guardará ningún dato y perderás el avance de tu proceso. Esta acción no se puede deshacer. ¿Deseas cancelar el proceso?',
    cancelling: 'Cancelando tu proceso…',
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
