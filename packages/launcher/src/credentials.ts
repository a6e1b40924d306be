import { launcherTexts } from '@kyc/contracts/texts';

/** Paths of the launcher calls (contracts routes.ts launcherIdentity and launcherAuth). */
export const identityPath = '/v1/launcher/identity';
export const authPath = '/v1/launcher/auth';

/** A launcher failure as the errors callback receives it, with the Spanish text shown to the user. */
export interface LauncherFailure {
  step: 'launcher';
  result: 'FAIL';
  type: 'LAUNCHER';
  /** HTTP status, or null without an answer. */
  status: number | null;
  error_text: string;
}

export class LauncherError extends Error {
  constructor(
    readonly status: number | null,
    readonly text: string,
    detail: string,
  ) {
    super(detail);
    this.name = 'LauncherError';
  }
  toFailure(): LauncherFailure {
    return { step: 'launcher', result: 'FAIL', type: 'LAUNCHER', status: this.status, error_text: this.text };
  }
}

/** Spec §8 launcher errors: keys (401), latest version (404), service (500), authenticity, connection. */
export function textForStatus(status: number | null): string {
  if (status === null) return launcherTexts.noConnection;
  if (status === 401 || status === 403) return launcherTexts.invalidKeys;
  if (status === 404 || status === 410) return launcherTexts.outdated;
  if (status >= 500) return launcherTexts.serviceDown;
  return launcherTexts.authenticity;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

async function post(fetchImpl: Fetch, url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      credentials: 'omit',
      mode: 'cors',
    });
  } catch (error) {
    throw new LauncherError(null, launcherTexts.noConnection, `no answer from ${url}: ${String(error)}`);
  }
  if (!response.ok) throw new LauncherError(response.status, textForStatus(response.status), `${url} answered ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new LauncherError(response.status, launcherTexts.authenticity, `${url} did not answer JSON`);
  }
}

function payloadField(json: unknown, field: string): string | null {
  const payload = (json as { payload?: Record<string, unknown> } | null)?.payload;
  const value = payload?.[field];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

const jwtShape = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** Identity call (apikey → uuid), then auth call (user {uuid, key} → JWT). */
export async function obtainCredentials(fetchImpl: Fetch, base: string, key: string, uuid?: string): Promise<{ uuid: string; token: string }> {
  const identity = await post(fetchImpl, base + identityPath, { apikey: key }, uuid ? { uuid } : {});
  const user = payloadField(identity, 'uuid');
  if (!user) throw new LauncherError(200, launcherTexts.authenticity, 'identity answer without uuid');
  const auth = await post(fetchImpl, base + authPath, {}, { user: { uuid: user, key } });
  const token = payloadField(auth, 'token');
  if (!token || !jwtShape.test(token)) throw new LauncherError(200, launcherTexts.authenticity, 'auth answer without a token');
  return { uuid: user, token };
}

/** The flow's entry URL in popup mode: /{key}?referer=...&jwt=...[&schema=...]. */
export function flowUrl(base: string, key: string, referer: string, token: string, schema?: string): string {
  const query = new URLSearchParams({ referer, jwt: token });
  if (schema) query.set('schema', schema);
  return `${base}/${encodeURIComponent(key)}?${query.toString()}`;
}
