/** Texts of /cancelar_flujo/:ruta. */
export const texts = {
  title: 'Proceso cancelado',
  message: 'Tu proceso fue cancelado. Si lo deseas, puedes intentarlo nuevamente.',
  reopen: 'INTENTAR NUEVAMENTE',
  restart: 'VOLVER AL INICIO',
} as const;
