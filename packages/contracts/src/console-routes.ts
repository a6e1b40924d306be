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
} as const;

/** The header carrying the session's CSRF token on every state-changing call. */
export const consoleCsrfHeader = 'x-csrf-token';

/** The images of a case file the console shows, each decrypted on the server for a signed-in user. */
export const consoleImageKinds = ['front', 'back', 'holder'] as const;
export type ConsoleImageKind = (typeof consoleImageKinds)[number];
