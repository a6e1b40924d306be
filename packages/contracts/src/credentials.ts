import type { RouteName } from './routes.js';

/**
 * The credential every call takes (issue #15, README "Threat model"). The publishable flow key (`apikey`, the
 * `/{apikey}` of the flow's URL) is public: alone it starts and continues a customer's journey and reads nothing
 * of anyone's.
 * - `public`: no credential (health, public branding, the launcher's signed token, the real-time answer/close).
 * - `flow`: the publishable key and the transaction headers; answers only what the caller itself sent.
 * - `flowRead`: the flow's calls that answer the person's own data (score, documents, checks against the stored
 *   ID, the result e-mail and bundle): the publishable key and the transaction headers plus the transaction's
 *   token (`X-Transaction-Token`, issued by `GET /v1/params` when the transaction starts) or, from a server,
 *   `Authorization: Bearer <secret server key>` of the same grantor.
 * - `server`: server-to-server reads, `Authorization: Bearer <secret server key>` only.
 * - `resultLink`: the result-link flow's signed credential (`X-Consumer-Custom-ID` or the link's path).
 */
export type CredentialClass = 'public' | 'flow' | 'flowRead' | 'server' | 'resultLink';

export const credentials = {
  health: 'public',
  ready: 'public',
  grantorParams: 'flow',
  publicGrantorParams: 'public',
  updateCycle: 'flow',
  auditEvent: 'flow',
  transactionEvents: 'server',
  renapo: 'flowRead',
  ine: 'flowRead',
  ocr: 'flow',
  otp: 'flow',
  videoTokenCode: 'flow',
  videoToken: 'flow',
  publicVideoToken: 'resultLink',
  publicOtp: 'resultLink',
  linkStatus: 'resultLink',
  idCalibrate: 'flow',
  tokenSms: 'flow',
  verifySms: 'flow',
  queryScore: 'flowRead',
  processDocuments: 'flowRead',
  file: 'flow',
  postalCodes: 'flow',
  nom151: 'flowRead',
  emailResult: 'flowRead',
  enlace: 'resultLink',
  launcherIdentity: 'flow',
  launcherAuth: 'public',
  launcherVerify: 'flow',
  recordConnections: 'flow',
  recordRemoteDescription: 'public',
  recordClose: 'public',
  facesCompare: 'server',
} as const satisfies Record<RouteName, CredentialClass>;

/** The header of the per-transaction token (lower case: HTTP header names arrive lower-cased). */
export const transactionTokenHeader = 'x-transaction-token';
