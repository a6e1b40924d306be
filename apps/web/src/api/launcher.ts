import { sessionState } from '../session/storage';
import { api } from './calls';
import { ApiError } from './client';

/**
 * Popup mode (docs/flow.md §6): the server checks the launcher's JWT for this grantor, user and referer origin
 * (POST /v1/launcher/verify, docs/decisions.md). Resolves when there is nothing to check or the token is good;
 * an ApiError with a status means the URL is not valid (the bad-URL panel).
 */
export async function verifyPopupLaunch(step: string, signal?: AbortSignal): Promise<'none' | 'verified'> {
  const storage = sessionState();
  const referer = storage.get('externalReference');
  const token = storage.get('externalJWT');
  if (!referer && !token) return 'none';
  if (!referer || !token) throw new ApiError('launcherVerify', 400, 'popup mode needs both referer and jwt');
  await api().request('launcherVerify', { step, body: { token, referer }, ...(signal ? { signal } : {}) });
  return 'verified';
}

/** A refused launch must not leave a referer behind: nothing is ever posted to it. */
export function forgetPopupLaunch(): void {
  const storage = sessionState();
  storage.remove('externalReference');
  storage.remove('externalJWT');
}
