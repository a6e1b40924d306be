/** Texts of /pdf_token_result (the document download). `spec` marks the spec's own words. */
export const texts = {
  title: 'Tu documento está listo',
  intro: 'Confirmamos tu identidad. Descarga tu documento ahora: solo se puede consultar una vez.',
  download: 'DESCARGAR DOCUMENTO', // spec
  downloading: 'Descargando tu documento…',
  downloaded: 'Descargamos tu documento (pdf_autorizacion.pdf). Revisa la carpeta de descargas de tu dispositivo.',
  failed: 'No pudimos descargar tu documento. Confirmaremos tu identidad de nuevo.',
} as const;
