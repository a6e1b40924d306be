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
  grantors: '/console/api/grantors',
} as const;

/** The header carrying the session's CSRF token on every state-changing call. */
export const consoleCsrfHeader = 'x-csrf-token';
