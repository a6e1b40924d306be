// zod-free: the flow's /repetir screen imports these values.
/**
 * The customer's side of a redo (issue #16, review decision `redo`): the link the reviewer's decision sends opens
 * `/repetir` in the flow, which calls these routes with the link's credential in `X-Redo-Token` (no api key: the
 * credential names the grantor, the transaction and the one step). Not part of the public OpenAPI document.
 */
export const redoPaths = {
  /** GET: what the link allows (its step, the grantor), or a refusal (410 used or expired, 400 altered). */
  status: '/v1/redo',
  /** POST multipart: one side of the ID (step `id`), read like `/v2/ocr`. */
  id: '/v1/redo/id',
  /** POST multipart: the proof of address (step `proof`), stored and read like `/v1/file`. */
  proof: '/v1/redo/proof',
  /** POST multipart: a face photo in, a one-time code and its schedule out (step `face`), like `/v1/otp`. */
  faceCode: '/v1/redo/face/code',
  /** POST multipart: the face video reading that code (step `face`), decided like `/v2/videotoken`. */
  faceVideo: '/v1/redo/face/video',
  /** POST: the step is done; the link is used up and the case goes back to review. */
  finish: '/v1/redo/finish',
} as const;

/** The flow's page the link opens (with `token` in its query). */
export const redoPagePath = '/repetir';

export const redoTokenHeader = 'x-redo-token';

/**
 * The Spanish texts of the redo (docs/flow.md has none: project texts in its tone, docs/decisions.md). The e-mail
 * and SMS name the grantor and the step; the flow's screens use the rest.
 */
export const redoTexts = {
  stepNames: { id: 'tu identificación (frente y reverso)', proof: 'tu comprobante de domicilio', face: 'un video de tu rostro' },
  mailSubject: (grantor: string) => `${grantor}: necesitamos que repitas un paso de tu solicitud`,
  mailIntro: (grantor: string, step: string) => `Al revisar tu solicitud, ${grantor} necesita que vuelvas a enviar ${step}. Solo tendrás que repetir ese paso; lo demás ya quedó registrado.`,
  mailLinkLabel: 'Repetir el paso',
  mailValidity: (until: string) => `El enlace funciona una sola vez, hasta el ${until}.`,
  sms: (grantor: string, step: string, url: string) => `${grantor}: vuelve a enviar ${step} para continuar tu solicitud: ${url}`,
  title: 'Repite un paso de tu solicitud',
  intro: (step: string) => `Necesitamos que vuelvas a enviar ${step}. Lo demás de tu solicitud ya quedó registrado.`,
  finishedTitle: '¡Listo!',
  finishedBody: 'Recibimos tu información. Nuestro equipo revisará tu solicitud y te avisará el resultado.',
  used: 'Este enlace ya fue utilizado. Si necesitas ayuda, comunícate con nosotros indicando tu folio.',
  expired: 'La vigencia de este enlace terminó. Comunícate con nosotros para recibir uno nuevo.',
  invalid: 'Este enlace no es válido. Revisa que lo hayas copiado completo.',
  otherStep: 'Este enlace solo permite repetir el paso que te solicitamos.',
  incomplete: 'Todavía falta enviar el paso solicitado.',
} as const;
