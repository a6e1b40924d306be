/** Spanish texts of docs/flow.md §8 that the server may send as message_client and the flow shows verbatim. */
export const errorTexts = {
  badUrlTitle: 'Verifica tu URL',
  badUrl: 'Lo sentimos la dirección que buscas no se encuentra o es incorrecta, por favor verifica la información e intenta nuevamente.',
  cookiesTitle: 'Verifica tu navegador',
  cookiesDisabled: 'Para acceder a este sitio es necesario habilitar el uso de Cookies',
  unsupportedBrowser: 'Lo sentimos tu navegador actual no es compatible con nuestra plataforma.',
  invalidValidityTitle: 'Identificación no válida',
  invalidValidity: 'La vigencia de tu identificación no es válida, por favor renueva tu identificación e intenta otro día, si crees que es un error intenta capturarla nuevamente.',
  invalidValidityReason: 'Fecha de vigencia no válida',
  attemptsExceeded: 'Has superado el número máximo de intentos para este proceso inténtalo nuevamente más tarde.',
  rotate: 'Por favor usa tu dispositivo en vertical',
  serviceUnavailable: 'El servicio no se encuentra disponible, lo solucionaremos en breve',
  network: 'Revisa tu conexión a internet e intenta nuevamente',
  watchdog: 'Lo sentimos no hemos logrado validar tu captura, por favor sigue las instrucciones e intenta nuevamente',
  idFrontFailed: 'Por favor ubica tu identificación en el área marcada para continuar.',
  idBackFailed: 'Por favor coloca la parte de atrás de tu identificación.',
  idUnreadable: 'No se pudo leer correctamente tus datos, por favor vuelve a intentar',
  networkBlock: 'Se ha detectado un bloqueo de red, verifica tu conexión de internet',
  proofRetry: 'Por favor captura nuevamente tu comprobante.',
  smsFailed: 'Ocurrió un error al validar el SMS, vuelve a intentar.',
  noMatch: 'No hay coincidencia intente nuevamente',
  noMatchClient: 'Lo sentimos detectamos inconsistencias en tu captura, por favor reinicia el proceso.',
  spoofDetected: 'Spoof detected',
  processFailure: 'Finalizado por reintentos',
  cancelled: 'Cancelado',
  noScore: 'Sin valores en el score',
  // project: the abuse limits' 429 (issue #15); an honest customer never sees it.
  tooManyRequests: 'Recibimos demasiadas solicitudes en poco tiempo. Espera un momento e intenta nuevamente.',
  // project: a result link whose document was already consulted (docs/flow.md §2 says it can be consulted once).
  linkConsumedTitle: 'Documento ya consultado',
  linkExpired: 'La vigencia de este enlace terminó.',
  linkConsumed: 'El documento de este enlace ya fue consultado. Por seguridad solo se puede consultar una vez; si necesitas consultarlo de nuevo, comunícate con nosotros y menciona tu folio.',
  emailAlreadySent: 'El resultado ya fue enviado a tu correo electrónico.',
  emailOtherAddress: 'El resultado de este proceso solo puede enviarse al correo que confirmaste.',
} as const;

/**
 * The 409 of a call made before the step it depends on (docs/decisions.md "The server holds the journey's order"):
 * docs/flow.md §8 has no text for it, so these are the project's, one per step that is due.
 */
export const journeyOrderTexts = {
  terminos: 'Para continuar primero debes aceptar el aviso de privacidad y los términos del proceso.',
  idFront: 'Para continuar primero debes capturar tu identificación.',
  clausula: 'Para continuar primero debes aceptar la cláusula de medios electrónicos.',
  autorizacion: 'Para continuar primero debes aceptar la autorización de tu solicitud.',
  faceVideo: 'Para continuar primero debes completar la confirmación de identidad con tu rostro.',
  /** The transaction was cancelled ('Cancelar proceso'): a new one must be started. */
  cancelled: 'Cancelaste este proceso. Para continuar inicia uno nuevo.',
} as const;

/** Face step server messages (docs/flow.md §8). The first seven do not count an attempt. */
export const faceMessages = {
  noFace: 'No se encontró rostro',
  mask: 'Se detectó cubrebocas',
  badLight: 'Condiciones de luz no adecuadas',
  blurry: 'Imagen borrosa',
  multipleFaces: 'Se detectaron múltiples caras',
  lowLight: 'Falta de luz',
  comparisonFailed: 'No se pudo realizar la comparación de rostro',
  phrase: 'No logramos entender la frase...',
  phraseShort: 'Error frase',
} as const;

/**
 * Launcher errors (docs/flow.md §8 names the cases, not the texts): the project's Spanish texts, shown to the partner's
 * user by the launcher and passed to its errors callback.
 */
export const launcherTexts = {
  invalidKeys: 'No pudimos iniciar tu proceso: la llave de acceso de este sitio no es válida. Avisa al comercio para que la revise.',
  outdated: 'Este sitio usa una versión del botón de verificación que ya no está disponible. Avisa al comercio para que use la versión más reciente.',
  serviceDown: 'El servicio de verificación no está disponible en este momento. Por favor intenta nuevamente en unos minutos.',
  authenticity: 'No pudimos comprobar la autenticidad de la conexión con el servicio de verificación. Por favor intenta nuevamente.',
  noConnection: 'No hay conexión con el servicio de verificación. Revisa tu conexión a internet e intenta nuevamente.',
  popupBlocked: 'Tu navegador bloqueó la ventana emergente. Permite las ventanas emergentes para este sitio y vuelve a presionar el botón.',
  opening: 'Abriendo tu proceso de verificación…',
} as const;

/** SMS code problems the service explains to the user (project texts; docs/flow.md §8 gives only smsFailed). */
export const smsTexts = {
  wait: 'Espera unos segundos antes de solicitar un nuevo código.',
  sendLimit: 'Alcanzaste el número máximo de códigos para este proceso. Inténtalo nuevamente más tarde.',
  expired: 'El código venció. Solicita uno nuevo con «Reenviar código».',
  exhausted: 'Ingresaste un código incorrecto demasiadas veces. Solicita uno nuevo con «Reenviar código».',
  notSent: 'No encontramos un código enviado a este número. Solicita uno nuevo.',
  consentMissing: 'Primero debes aceptar la autorización de consulta de tu historial crediticio.',
} as const;
