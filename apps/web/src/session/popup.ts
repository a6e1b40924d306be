import { sessionState } from './storage';

/**
 * Messages the popup sends to the partner page that opened it (docs/flow.md §2 launcher, §4 "Opener messages").
 * Field names are the spec's wire names.
 */
export interface OpenerMessage {
  step: string;
  result: 'OK' | 'FAIL' | 'INCOMPLETED';
  uuid?: string;
  transaccion?: string;
  data?: unknown;
  type?: 'PROCESS';
  status?: 'INCOMPLETED' | 'FAIL';
  error_text?: string;
}

/** The origin of the referer query value, or null when it is not an http(s) URL. */
export function refererOrigin(referer: string | null | undefined): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function isPopup(): boolean {
  try {
    return typeof window !== 'undefined' && window.opener != null && window.opener !== window;
  } catch {
    return false;
  }
}

/**
 * Posts to the opener, only to the referer's origin (DESIGN.md trust rules: never '*').
 * Returns false when there is no opener or no valid referer.
 */
export function postToOpener(message: OpenerMessage): boolean {
  if (!isPopup()) return false;
  const origin = refererOrigin(sessionState().get('externalReference'));
  if (!origin) return false;
  try {
    (window.opener as Window).postMessage(message, origin);
    return true;
  } catch {
    return false;
  }
}

/**
 * The user id (sub) inside the launcher's JWT, read without checking the signature: the flow uses it as its
 * cliente so that the partner's messages carry the uuid its identity call issued. The server verifies the token
 * (launcherVerify) before the journey goes on, and refuses it for any other cliente.
 */
export function jwtSubject(jwt: string | null | undefined): string | null {
  const payload = jwt?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

/** Popup mode (docs/flow.md §6): the entry URL carries referer and jwt (and optionally schema). */
export function hasPopupQuery(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('referer') || query.has('jwt');
}
