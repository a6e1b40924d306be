/** Texts of /pivote, the launcher demo page for integrators (not a step of the journey). */
export const texts = {
  title: 'Demo para integradores',
  /** The intro names the launcher's script between `introBefore` and `introAfter`. */
  introBefore: 'Este botón es el lanzador que un sitio aliado inserta en su página (',
  introAfter: '). Abre el proceso en una ventana emergente y aquí se muestran los mensajes que envía.',
  messages: 'Mensajes recibidos',
  columns: { step: 'Paso (step)', result: 'Estado (result)', callback: 'Callback', data: 'Datos' },
  noMessages: 'Aún no hay mensajes.',
  errors: 'Errores',
  noErrors: 'Sin errores.',
  completed: (result: string) => `Proceso concluido (${result}).`,
  cancelled: (step: string) => `La persona canceló en el paso ${step}.`,
  closed: (step: string | null | undefined) => `La persona cerró la ventana${step ? ` después del paso ${step}` : ''}.`,
} as const;
