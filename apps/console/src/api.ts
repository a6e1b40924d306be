import { consoleCsrfHeader, consoleInsightPaths, consolePaths } from '@kyc/contracts/console-routes';
import type {
  ConsoleCaseFile,
  ConsoleCaseQuery,
  ConsoleCasePage,
  ConsoleDelivery,
  ConsoleDeliveryPage,
  ConsoleFunnel,
  ConsoleFunnelQuery,
  ConsoleGrantors,
  ConsoleImageKind,
  ConsoleReviewRequest,
  ConsoleSessionState,
  ConsoleVideoFrames,
  ConsoleWebhookEndpoints,
  ConsoleWebhookEndpointCreate,
  ConsoleWebhookEndpointCreated,
  ConsoleParams,
  ConsoleSecretKeys,
  ConsoleSecretKeyCreated,
  ConsoleStaffUsers,
  ConsoleStaffUserCreate,
  ConsoleStaffUserCredentials,
  ConsoleStaffUserUpdate,
  ConsoleRetention,
  ConsoleRetentionUpdate,
} from '@kyc/contracts';

/** A refused call, with the Spanish text the service gives for people (message_client). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    /** The fields a 400 refused, each with its Spanish text. */
    readonly fields: Record<string, string> = {},
  ) {
    super(text);
  }
}

const fallbackText = 'No pudimos completar la solicitud. Inténtalo de nuevo.';

/** The session's CSRF token, kept in memory only (never in storage a script of another page could read). */
let csrfToken = '';

/**
 * The grantor a platform operator is looking at (the top bar's picker): sent as `grantorId` with every call that
 * does not name one itself. Empty for a grantor's own staff, whose calls always concern their grantor.
 */
let grantorScope = '';

/** `url` with the operator's chosen grantor (unless it names one already, or is a sign-in call). */
export function scopedUrl(url: string): string {
  if (!grantorScope || url.startsWith(consolePaths.session) || url.startsWith(consolePaths.grantors)) return url;
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  if (params.has('grantorId')) return url;
  params.set('grantorId', grantorScope);
  return `${path}?${params.toString()}`;
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[consoleCsrfHeader] = csrfToken;
  let response: Response;
  try {
    response = await fetch(scopedUrl(url), { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'Sin conexión con el servidor. Revisa tu red e inténtalo de nuevo.');
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => undefined)) as (T & { message_client?: string; fields?: Record<string, string> }) | undefined;
  if (!response.ok || data === undefined) throw new ApiError(response.status, data?.message_client ?? fallbackText, data?.fields);
  return data;
}

/** A case path with its id, and the grantor a platform operator is looking at. */
function casePath(template: string, uuidTrx: string, grantorId: string | undefined, extra: Record<string, string> = {}): string {
  let path = template.replace(':uuidTrx', encodeURIComponent(uuidTrx));
  for (const [key, value] of Object.entries(extra)) path = path.replace(`:${key}`, encodeURIComponent(value));
  return grantorId ? `${path}?grantorId=${encodeURIComponent(grantorId)}` : path;
}

const withId = (template: string, name: string, value: string) => template.replace(`:${name}`, encodeURIComponent(value));

function remember(state: ConsoleSessionState): ConsoleSessionState {
  csrfToken = state.csrfToken;
  return state;
}

export const api = {
  session: async () => remember(await call<ConsoleSessionState>('GET', consolePaths.session)),
  signIn: async (email: string, password: string) => remember(await call<ConsoleSessionState>('POST', consolePaths.session, { email, password })),
  totp: async (code: string) => remember(await call<ConsoleSessionState>('POST', consolePaths.sessionTotp, { code })),
  signOut: async () => {
    await call<void>('DELETE', consolePaths.session);
    csrfToken = '';
    grantorScope = '';
  },
  /** A platform operator's choice of grantor for every following call ('' = none). */
  chooseGrantor: (grantorId: string) => {
    grantorScope = grantorId;
  },
  grantors: () => call<ConsoleGrantors>('GET', consolePaths.grantors),
  cases: (query: ConsoleCaseQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
    return call<ConsoleCasePage>('GET', `${consolePaths.cases}?${params.toString()}`);
  },
  caseFile: (uuidTrx: string, grantorId?: string) => call<ConsoleCaseFile>('GET', casePath(consolePaths.caseFile, uuidTrx, grantorId)),
  review: (uuidTrx: string, body: ConsoleReviewRequest, grantorId?: string) => call<ConsoleCaseFile>('POST', casePath(consolePaths.caseReview, uuidTrx, grantorId), body),
  webhooks: () => call<ConsoleWebhookEndpoints>('GET', consolePaths.webhooks),
  deliveries: (endpointId: string, page: { cursor?: string | undefined; limit: number }) => {
    const params = new URLSearchParams({ limit: String(page.limit) });
    if (page.cursor) params.set('cursor', page.cursor);
    return call<ConsoleDeliveryPage>('GET', `${consolePaths.webhookDeliveries.replace(':endpointId', encodeURIComponent(endpointId))}?${params.toString()}`);
  },
  replay: (deliveryId: string) => call<ConsoleDelivery>('POST', consolePaths.deliveryReplay.replace(':deliveryId', encodeURIComponent(deliveryId))),
  addEndpoint: (body: ConsoleWebhookEndpointCreate) => call<ConsoleWebhookEndpointCreated>('POST', consolePaths.webhooks, body),
  removeEndpoint: (endpointId: string) => call<ConsoleWebhookEndpoints>('DELETE', withId(consolePaths.webhook, 'endpointId', endpointId)),
  params: () => call<ConsoleParams>('GET', consolePaths.settingsParams),
  saveParams: (values: Record<string, string>) => call<ConsoleParams>('PUT', consolePaths.settingsParams, { values }),
  keys: () => call<ConsoleSecretKeys>('GET', consolePaths.settingsKeys),
  createKey: (label: string) => call<ConsoleSecretKeyCreated>('POST', consolePaths.settingsKeys, { label }),
  rotateKey: (keyId: string) => call<ConsoleSecretKeyCreated>('POST', withId(consolePaths.settingsKeyRotate, 'keyId', keyId)),
  revokeKey: (keyId: string) => call<ConsoleSecretKeys>('POST', withId(consolePaths.settingsKeyRevoke, 'keyId', keyId)),
  users: () => call<ConsoleStaffUsers>('GET', consolePaths.settingsUsers),
  createUser: (body: ConsoleStaffUserCreate) => call<ConsoleStaffUserCredentials>('POST', consolePaths.settingsUsers, body),
  updateUser: (userId: string, body: ConsoleStaffUserUpdate) => call<ConsoleStaffUsers>('PATCH', withId(consolePaths.settingsUser, 'userId', userId), body),
  resetTotp: (userId: string) => call<ConsoleStaffUserCredentials>('POST', withId(consolePaths.settingsUserTotp, 'userId', userId)),
  retention: () => call<ConsoleRetention>('GET', consolePaths.settingsRetention),
  saveRetention: (body: ConsoleRetentionUpdate) => call<ConsoleRetention>('PUT', consolePaths.settingsRetention, body),
  funnel: (query: ConsoleFunnelQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
    return call<ConsoleFunnel>('GET', `${consoleInsightPaths.funnel}?${params.toString()}`);
  },
  videoFrames: (uuidTrx: string, grantorId?: string) => call<ConsoleVideoFrames>('GET', casePath(consoleInsightPaths.caseVideoFrames, uuidTrx, grantorId)),
  /** Same-origin video URL, streamed by the server (Range) for the signed-in user. */
  videoUrl: (uuidTrx: string, grantorId?: string) => casePath(consoleInsightPaths.caseVideo, uuidTrx, grantorId),
  /** The evidence bundle as a file (a refusal keeps its Spanish text). */
  bundle: async (uuidTrx: string, grantorId?: string): Promise<{ blob: Blob; name: string }> => {
    let response: Response;
    try {
      response = await fetch(casePath(consoleInsightPaths.caseBundle, uuidTrx, grantorId), { credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'Sin conexión con el servidor. Revisa tu red e inténtalo de nuevo.');
    }
    if (!response.ok) {
      const data = (await response.json().catch(() => undefined)) as { message_client?: string } | undefined;
      throw new ApiError(response.status, data?.message_client ?? fallbackText);
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `expediente-${uuidTrx.slice(0, 8)}.zip`;
    return { blob: await response.blob(), name };
  },
  /** Same-origin image URL: the session cookie goes with it and the server decrypts the image. */
  imageUrl: (uuidTrx: string, which: ConsoleImageKind, grantorId?: string) => casePath(consolePaths.caseImage, uuidTrx, grantorId, { which }),
};
