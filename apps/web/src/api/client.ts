// Types only: the contracts' zod schemas never reach the browser bundle (the entry chunk stays small).
import type { CallName, CallResponse } from '@kyc/contracts';
import { credentials, transactionTokenHeader } from '@kyc/contracts/credentials';
import { pathOf, routes, type RouteName } from '@kyc/contracts/routes';
import type { SessionFacts } from '../session/session';

/** A failed call. status is null when no HTTP response arrived (network failure, CORS, DNS). */
export class ApiError extends Error {
  readonly route: RouteName;
  readonly status: number | null;
  /** Spanish text the server meant for the user (docs/flow.md §8), when it sent one. */
  readonly messageClient: string | undefined;

  /** A 429 of a lock: when it ends (epoch ms), from the body's locked_until. */
  readonly lockedUntil: number | undefined;

  constructor(route: RouteName, status: number | null, message: string, messageClient?: string, lockedUntil?: number) {
    super(message);
    this.lockedUntil = lockedUntil;
    this.name = 'ApiError';
    this.route = route;
    this.status = status;
    this.messageClient = messageClient;
  }

  /** True when the server answered (docs/flow.md §8 logs these as 'Error'; the rest as 'Exception'). */
  get hasResponse(): boolean {
    return this.status !== null;
  }
}

export interface RequestOptions {
  /** Journey step making the call: the audit record's paso when the call fails. */
  step: string;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Send the transaccion, cliente and apikey headers (default true). */
  identify?: boolean;
  /** Extra request headers (e.g. the INE call's Otorgante). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Bytes of a multipart body sent so far; total is null when the browser cannot tell. */
export interface UploadProgress {
  loaded: number;
  total: number | null;
}

export interface MultipartOptions extends Omit<RequestOptions, 'body'> {
  /** Upload progress while the body is being sent. */
  onUploadProgress?: (progress: UploadProgress) => void;
  /** The whole body has been sent; the server is processing it. */
  onUploaded?: () => void;
  /** A transport that reports upload progress (the browser's is media/xhr-upload.ts); fetch otherwise. */
  transport?: UploadTransport;
}

export interface UploadCallbacks {
  onProgress: (progress: UploadProgress) => void;
  onUploaded: () => void;
}

/** A transport that reports upload progress; answers like fetch. */
export type UploadTransport = (url: string, init: RequestInit, callbacks: UploadCallbacks) => Promise<Response>;

export interface ApiClientDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  session: () => SessionFacts;
  now?: () => Date;
  /** Default transport for multipart uploads that ask for progress (a call's own transport wins); else fetch. */
  upload?: UploadTransport;
  /** Keeps the transaction's token the server issues when a call creates the transaction. */
  keepTransactionToken?: (token: string) => void;
}

export type AuditType = 'Error' | 'Exception' | (string & {});

/**
 * The answer of a call as the browser uses it: the contract's response type, except the media server's offer,
 * whose `type` the contract says is a string and RTCPeerConnection wants as an RTCSdpType (narrowing the contract
 * waits for the server's realtime module to move, issue #14).
 */
export type Answer<N extends CallName> = N extends 'recordConnections' ? Omit<CallResponse<N>, 'localDescription'> & { localDescription: RTCSessionDescriptionInit } : CallResponse<N>;

/**
 * Calls of docs/flow.md §7 by their contract name; each answer is typed by the call's response schema in
 * packages/contracts (the type only: answers are not validated in the browser, so readers of fields that drive a
 * decision keep their own checks).
 */
export interface ApiClient {
  request<N extends CallName>(name: N, options: RequestOptions): Promise<Answer<N>>;
  /** POST of a multipart form (files and text fields), with the identity headers and optional upload progress. */
  postMultipart<N extends CallName>(name: N, form: FormData, options: MultipartOptions): Promise<Answer<N>>;
  /** Audit event of docs/flow.md §3 (POST celd_events). Its own failures are never audited again. */
  audit(paso: string, tipo: AuditType, dato: string, finished?: boolean): Promise<void>;
}

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The call's path with its params, and its query string. */
function urlOf(name: RouteName, options: RequestOptions): string {
  let url = pathOf(routes[name].path, options.params);
  if (options.query) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query)) if (value !== undefined) query.set(key, value);
    const search = query.toString();
    if (search) url += `?${search}`;
  }
  return url;
}

/** The call's headers: the caller's, and the transaction's identity unless the call is anonymous. */
function headersOf(name: RouteName, options: RequestOptions, session: () => SessionFacts): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.identify === false) return headers;
  const facts = session();
  if (facts.uuidTrx) headers.transaccion = facts.uuidTrx;
  if (facts.uuidUser) headers.cliente = facts.uuidUser;
  if (facts.apikey) headers.apikey = facts.apikey;
  // The publishable key alone reads nothing of the person's: these calls carry the transaction's own token.
  if (credentials[name] === 'flowRead' && facts.transactionToken) headers[transactionTokenHeader] = facts.transactionToken;
  return headers;
}

/** The answer's JSON, or the ApiError its status or envelope says (docs/flow.md §8). */
async function readAnswer(name: RouteName, response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError(name, response.status, describe(error));
  }
  let json: unknown = null;
  try {
    json = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    throw new ApiError(name, response.status, `invalid JSON response (${response.status})`);
  }
  const envelope = (typeof json === 'object' && json !== null ? json : {}) as {
    status?: unknown;
    message?: unknown;
    message_client?: unknown;
    locked_until?: unknown;
  };
  const bodyStatus = typeof envelope.status === 'number' ? envelope.status : null;
  // Spec §8: errors read the body's message and status; an envelope with a non-200 status is an error too.
  if (!response.ok || (bodyStatus !== null && (bodyStatus < 200 || bodyStatus >= 300))) {
    throw new ApiError(
      name,
      bodyStatus ?? response.status,
      typeof envelope.message === 'string' ? envelope.message : response.statusText || `HTTP ${response.status}`,
      typeof envelope.message_client === 'string' ? envelope.message_client : undefined,
      typeof envelope.locked_until === 'string' && Number.isFinite(Date.parse(envelope.locked_until)) ? Date.parse(envelope.locked_until) : undefined,
    );
  }
  return json;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const now = deps.now ?? (() => new Date());

  async function transport(url: string, init: RequestInit, upload: MultipartOptions | undefined): Promise<Response> {
    const wantsProgress = upload !== undefined && (upload.onUploadProgress !== undefined || upload.onUploaded !== undefined);
    const uploadTransport = upload?.transport ?? deps.upload;
    if (wantsProgress && uploadTransport) {
      return uploadTransport(url, init, {
        onProgress: (progress) => upload.onUploadProgress?.(progress),
        onUploaded: () => upload.onUploaded?.(),
      });
    }
    const response = await deps.fetch(url, init);
    // fetch answers once the body is sent and the headers are back: the upload is over by then.
    upload?.onUploaded?.();
    return response;
  }

  async function send(name: RouteName, options: RequestOptions, multipart?: { form: FormData; upload: MultipartOptions }): Promise<unknown> {
    const headers = headersOf(name, options, deps.session);
    const init: RequestInit = { method: routes[name].method, headers, credentials: 'same-origin' };
    if (options.signal) init.signal = options.signal;
    if (multipart) {
      // The browser writes the multipart content-type with its boundary.
      init.body = multipart.form;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await transport(urlOf(name, options), init, multipart?.upload);
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ApiError(name, null, describe(error));
    }
    const issuedToken = response.headers.get(transactionTokenHeader);
    if (issuedToken && response.ok) deps.keepTransactionToken?.(issuedToken);
    return readAnswer(name, response);
  }

  async function audit(paso: string, tipo: AuditType, dato: string, finished = false): Promise<void> {
    const session = deps.session();
    await send('auditEvent', {
      step: paso,
      body: {
        uuid_clt: session.uuidUser ?? '',
        uuid_trx: session.uuidTrx ?? '',
        uuid_oto: session.uuidOtorgante ?? '',
        apikey: session.apikey ?? '',
        paso,
        tipo,
        dato,
        finished,
        time_stamp: now().toISOString(),
      },
    });
  }

  async function reportFailure(name: RouteName, step: string, error: unknown): Promise<void> {
    // The audit call's own failure is never audited: that would loop.
    if (name === 'auditEvent') return;
    const status = error instanceof ApiError ? error.status : null;
    const dato = JSON.stringify({ ruta: routes[name].path, status, message: describe(error) });
    try {
      await audit(step, status === null ? 'Exception' : 'Error', dato);
    } catch {
      // nothing more to do: the audit trail is unreachable
    }
  }

  async function request(name: CallName, options: RequestOptions): Promise<unknown> {
    try {
      return await send(name, options);
    } catch (error) {
      if (!isAbortError(error)) void reportFailure(name, options.step, error);
      throw error;
    }
  }

  async function postMultipart(name: CallName, form: FormData, options: MultipartOptions): Promise<unknown> {
    if (routes[name].method !== 'POST') throw new Error(`${name} is not a POST call`);
    try {
      return await send(name, options, { form, upload: options });
    } catch (error) {
      if (!isAbortError(error)) void reportFailure(name, options.step, error);
      throw error;
    }
  }

  // The answer's type is the contract's (see ApiClient); the JSON itself is not checked here.
  return {
    request: request as ApiClient['request'],
    postMultipart: postMultipart as ApiClient['postMultipart'],
    audit,
  };
}
