export type BrowserSupport = 'ok' | 'unsupported' | 'cookies';

interface SupportEnvironment {
  fetch?: unknown;
  Promise?: unknown;
  crypto?: { randomUUID?: unknown };
  navigator?: { cookieEnabled?: boolean };
  localStorage?: unknown;
}

/**
 * Spec §2 shared overlays. Unsupported: no fetch, Promise, crypto.randomUUID (also missing outside a
 * secure context) or localStorage at all. Cookies: the browser blocks storage (reading localStorage
 * throws, or cookies are switched off).
 */
export function detectSupport(env: SupportEnvironment, storageWorks: () => boolean): BrowserSupport {
  if (typeof env.fetch !== 'function' || typeof env.Promise !== 'function') return 'unsupported';
  if (typeof env.crypto?.randomUUID !== 'function') return 'unsupported';
  let hasStorage: boolean;
  try {
    hasStorage = 'localStorage' in env;
  } catch {
    hasStorage = true;
  }
  if (!hasStorage) return 'unsupported';
  if (env.navigator?.cookieEnabled === false || !storageWorks()) return 'cookies';
  return 'ok';
}
