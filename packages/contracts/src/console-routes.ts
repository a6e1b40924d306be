// zod-free: the console app (apps/console) imports these values.
/**
 * The review console's API (apps/console ↔ features/console), under /console/api so that the session cookie
 * (path /console) reaches it. Cookie-authenticated and not part of the public OpenAPI document.
 */
export const consolePaths = {
  session: '/console/api/session',
  sessionTotp: '/console/api/session/totp',
  cases: '/console/api/cases',
  case: '/console/api/cases/:uuidTrx',
  caseFile: '/console/api/cases/:uuidTrx/file',
  /** `which`: one of consoleImageKinds. */
  caseImage: '/console/api/cases/:uuidTrx/images/:which',
  /** POST: approve, reject, or ask the customer to redo one step (decision `redo`). */
  caseReview: '/console/api/cases/:uuidTrx/review',
  grantors: '/console/api/grantors',
  webhooks: '/console/api/webhooks',
  webhookDeliveries: '/console/api/webhooks/:endpointId/deliveries',
  deliveryReplay: '/console/api/webhook-deliveries/:deliveryId/replay',
  /** DELETE: the endpoint stops receiving deliveries (kept, inactive, with its log). */
  webhook: '/console/api/webhooks/:endpointId',
  settingsParams: '/console/api/settings/params',
  settingsKeys: '/console/api/settings/keys',
  settingsKeyRotate: '/console/api/settings/keys/:keyId/rotate',
  settingsKeyRevoke: '/console/api/settings/keys/:keyId/revoke',
  settingsUsers: '/console/api/settings/users',
  settingsUser: '/console/api/settings/users/:userId',
  settingsUserTotp: '/console/api/settings/users/:userId/totp-reset',
  settingsRetention: '/console/api/settings/retention',
} as const;

/** The events an endpoint may subscribe to (every one unless it chose some: settings, migration 0024). */
export const consoleWebhookEventTypes = ['verification.completed', 'verification.abandoned', 'review.decided'] as const;

/** The header carrying the session's CSRF token on every state-changing call. */
export const consoleCsrfHeader = 'x-csrf-token';

/** The images of a case file the console shows, each decrypted on the server for a signed-in user. */
export const consoleImageKinds = ['front', 'back', 'holder'] as const;
export type ConsoleImageKind = (typeof consoleImageKinds)[number];

/**
 * The steps a reviewer may ask the customer to redo (decision `redo`, docs/decisions.md "Asking the customer to redo
 * one step" and "Redoing the face video"): the ID capture (front and back, one card), the proof of address and the
 * face video (decided against the holder photo the case kept). The consents and the data the person confirmed cannot
 * be asked again through a redo link (see the decision).
 */
export const consoleRedoSteps = ['id', 'proof', 'face'] as const;
export type ConsoleRedoStep = (typeof consoleRedoSteps)[number];

/** How the redo link reaches the customer: the result e-mail's address and/or the SMS-verified mobile number. */
export const consoleRedoChannels = ['email', 'sms'] as const;
export type ConsoleRedoChannel = (typeof consoleRedoChannels)[number];

/** The fixed reason codes of a review, by decision (Spanish labels in apps/console labels.ts). */
export const consoleReviewReasons = {
  approve: ['identity_confirmed', 'documents_confirmed', 'risk_accepted'],
  reject: ['document_invalid', 'face_mismatch', 'data_inconsistent', 'suspected_fraud', 'incomplete'],
  redo: ['image_unreadable', 'document_expired', 'wrong_document', 'proof_outdated', 'proof_name_mismatch', 'face_video_unclear'],
} as const;
export type ConsoleReviewReason = (typeof consoleReviewReasons)[keyof typeof consoleReviewReasons][number];

/** The reason codes as the console shows them. */
export const consoleReviewReasonLabels: Record<ConsoleReviewReason, string> = {
  identity_confirmed: 'Identidad confirmada',
  documents_confirmed: 'Documentos verificados',
  risk_accepted: 'Riesgo aceptado',
  document_invalid: 'Identificación no válida',
  face_mismatch: 'El rostro no coincide',
  data_inconsistent: 'Datos inconsistentes',
  suspected_fraud: 'Sospecha de fraude',
  incomplete: 'Expediente incompleto',
  image_unreadable: 'La imagen no se puede leer',
  document_expired: 'Documento vencido',
  wrong_document: 'No es el documento solicitado',
  proof_outdated: 'Comprobante con más de tres meses',
  proof_name_mismatch: 'El comprobante está a nombre de otra persona',
  face_video_unclear: 'El video del rostro no permite confirmar la identidad',
};

/** The redo steps as the console names them. */
export const consoleRedoStepLabels: Record<ConsoleRedoStep, string> = {
  id: 'Identificación (frente y reverso)',
  proof: 'Comprobante de domicilio',
  face: 'Video del rostro',
};

/** The channels as the console names them. */
export const consoleRedoChannelLabels: Record<ConsoleRedoChannel, string> = { email: 'Correo electrónico', sms: 'SMS' };
export * from './console-insights.js';
