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

/** The fixed reason codes of a review, by decision (Spanish labels in apps/console labels.ts). */
export const consoleReviewReasons = {
  approve: ['identity_confirmed', 'documents_confirmed', 'risk_accepted'],
  reject: ['document_invalid', 'face_mismatch', 'data_inconsistent', 'suspected_fraud', 'incomplete'],
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
};
export * from './console-insights.js';
