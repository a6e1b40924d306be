/** Texts of /pdf_token (the result link's first page). */
export const texts = {
  title: 'Consulta tu documento',
  intro: 'Tu documento está listo. Para proteger tu información confirmaremos tu identidad con un video corto de tu rostro.',
  expiry: 'Este enlace es válido hasta el',
  once: 'Importante: tu documento solo se puede consultar una vez.',
  loading: 'Preparando tu consulta…',
  browser: {
    title: 'Navegador no compatible',
    useChromeOrEdge: 'Para consultar tu documento abre este enlace en Google Chrome o Microsoft Edge.',
    useSafari: 'Para consultar tu documento abre este enlace en Safari.',
  },
} as const;
