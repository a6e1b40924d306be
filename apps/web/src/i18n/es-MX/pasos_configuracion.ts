/** Texts of /pasos_configuracion (turning on MediaRecorder in Safari). */
export const texts = {
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
} as const;
