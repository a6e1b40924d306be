/** Texts of /pdf_token_instructions. */
export const texts = {
  title: 'Antes de empezar',
  camera: 'Permite el acceso a tu cámara y a tu micrófono cuando tu navegador lo solicite.',
  place: 'Busca un lugar tranquilo, bien iluminado y sin ruido.',
  expiry: 'Recuerda que tu enlace es válido hasta el',
} as const;
