/** Texts of /holograma (the hologram calibration). `spec` marks the spec's own words. */
export const texts = {
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
} as const;
