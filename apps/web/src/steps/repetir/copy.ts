import { redoTexts } from '@kyc/contracts/redo-routes';

/** Texts of /repetir (project texts: docs/flow.md has no redo; docs/decisions.md "Asking the customer to redo one step"). */
export const redoCopy = {
  ...redoTexts,
  loading: 'Cargando…',
  start: 'CONTINUAR',
  parts: {
    front: { title: 'Frente de tu identificación', hint: 'Coloca el frente de tu identificación dentro del recuadro.' },
    back: { title: 'Reverso de tu identificación', hint: 'Ahora coloca el reverso de tu identificación dentro del recuadro.' },
    proof: { title: 'Tu comprobante de domicilio', hint: 'Coloca tu comprobante dentro del recuadro, con tu nombre y dirección visibles.' },
  },
  videoLabel: 'Vista de la cámara con la guía para tu documento',
  capture: 'CAPTURAR',
  choose: 'ELEGIR UNA FOTO',
  previewTitle: 'Revisa tu foto',
  previewIntro: '¿Se lee bien toda la información?',
  imageAlt: 'La foto que vas a enviar',
  send: 'ENVIAR',
  retake: 'CAPTURAR DE NUEVO',
  sending: 'Estamos revisando tu foto…',
  retryTitle: 'No pudimos usar tu foto',
  retry: 'VOLVER A INTENTAR',
  refusedTitle: 'Enlace no disponible',
  network: 'No pudimos comunicarnos con el servidor. Revisa tu conexión e intenta de nuevo.',
  finishing: 'Estamos guardando tu video…',
  recorderMissing: 'Tu navegador no permite grabar video. Abre este enlace en una versión reciente de Chrome, Safari o Firefox.',
  faceExhausted: 'Ya no quedan intentos para repetir este paso. Comunícate con nosotros indicando tu folio.',
} as const;
