/** Texts of /error_pantalla (the capture tips are in capture.ts). `spec` marks the spec's own words. */
export const texts = {
  title: 'No pudimos leer tu identificación',
  /** The back refused: unreadable, or not the back of the card whose front was read (docs/flow.md §4). */
  titleBack: 'No pudimos usar el reverso de tu identificación',
  attemptsLeft: (n: number) => (n === 1 ? 'Te queda 1 intento.' : `Te quedan ${n} intentos.`),
  recapture: 'Capturar nuevamente', // spec
  cancel: 'Cancelar', // spec
} as const;
