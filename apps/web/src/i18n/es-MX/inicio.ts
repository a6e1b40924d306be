/** Texts of the start page (/:apikey). `spec` marks the spec's own words. */
export const texts = {
  title: 'Inicia tu pre-registro', // spec
  intro: 'Para completar tu pre-registro necesitarás:',
  requirementId: 'Una identificación oficial vigente: INE/IFE, pasaporte mexicano o documento migratorio.',
  requirementIdDni: 'Tu DNI (Documento Nacional de Identidad) vigente.',
  requirementCamera: 'Permitir el acceso a la cámara de tu dispositivo.',
  requirementConnection: 'Una buena conexión a internet.',
  start: 'EMPEZAR', // spec
  help: '¿Necesitas ayuda?',
  loadingParams: 'Estamos preparando tu proceso…',
} as const;
