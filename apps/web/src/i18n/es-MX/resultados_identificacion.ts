import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /resultados_identificacion (the data read from the ID). `spec` marks the spec's own words. */
export const texts = {
  title: 'Verifica tu información', // spec
  introEditable: 'Revisa que tus datos coincidan con tu identificación y corrígelos si es necesario.',
  introReadOnly: 'Estos son los datos que leímos de tu identificación. Si alguno no es correcto, captúrala nuevamente.',
  introReadOnlyUnread: 'Estos son los datos que leímos de tu identificación. Escribe los que no pudimos leer; si alguno no es correcto, captúrala nuevamente.',
  unreadHint: 'No pudimos leer este dato: escríbelo tal como aparece en tu identificación.',
  labels: {
    nombreCompleto: 'Nombre completo',
    fechaNacimiento: 'Fecha de nacimiento',
    clave: 'Clave de elector',
    fechaRegistro: 'Año de registro',
    numeroEmision: 'Número de emisión',
    cic: 'CIC u OCR',
    curp: 'CURP',
    dni: 'DNI',
    vigencia: 'Vigencia (año)',
    vigenciaPasaporte: 'Vigencia',
  },
  hints: {
    fechaNacimiento: 'Formato dd/mm/aaaa',
    vigenciaPasaporte: 'Formato dd/mm/aaaa, o PERMANENTE',
  },
  fixErrors: 'Revisa los campos marcados.',
  continue: 'CONTINUAR', // spec
  recapture: 'CAPTURAR NUEVAMENTE', // spec
  saving: 'Guardando tus datos…',
  noRead: 'No encontramos la lectura de tu identificación. Captúrala para continuar.',
  invalidTitle: errorTexts.invalidValidityTitle, // spec
  invalidText: errorTexts.invalidValidity, // spec
  terminate: 'TERMINAR', // spec
} as const;
