/** Texts of the result-link flow (es-MX). `spec` marks the spec's own words. */
export const linkCopy = {
  token: {
    title: 'Consulta tu documento',
    intro: 'Tu documento está listo. Para proteger tu información confirmaremos tu identidad con un video corto de tu rostro.',
    expiry: 'Este enlace es válido hasta el',
    once: 'Importante: tu documento solo se puede consultar una vez.',
    loading: 'Preparando tu consulta…',
  },
  browser: {
    title: 'Navegador no compatible',
    useChromeOrEdge: 'Para consultar tu documento abre este enlace en Google Chrome o Microsoft Edge.',
    useSafari: 'Para consultar tu documento abre este enlace en Safari.',
  },
  instructions: {
    title: 'Antes de empezar',
    camera: 'Permite el acceso a tu cámara y a tu micrófono cuando tu navegador lo solicite.',
    place: 'Busca un lugar tranquilo, bien iluminado y sin ruido.',
    expiry: 'Recuerda que tu enlace es válido hasta el',
  },
  expired: {
    title: 'Enlace vencido',
    lapsed: 'La vigencia de este enlace terminó el',
    lapsedNoDate: 'La vigencia de este enlace terminó.',
    help: 'Si necesitas consultar tu documento, comunícate con nosotros y menciona tu folio.',
    phone: 'Teléfono de ayuda',
  },
  result: {
    title: 'Tu documento está listo',
    intro: 'Confirmamos tu identidad. Descarga tu documento ahora: solo se puede consultar una vez.',
    download: 'DESCARGAR DOCUMENTO', // spec
    downloading: 'Descargando tu documento…',
    downloaded: 'Descargamos tu documento (pdf_autorizacion.pdf). Revisa la carpeta de descargas de tu dispositivo.',
    failed: 'No pudimos descargar tu documento. Confirmaremos tu identidad de nuevo.',
  },
} as const;
