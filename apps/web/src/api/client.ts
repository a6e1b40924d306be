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
  /** The server is busy and the call will be sent again (a screen may tell the person); the client's own onBusy too. */
  onBusy?: (wait: BusyWait) => void;
}

/** A 503 the client answers by waiting and sending the call again (the server stored nothing of it). */
export interface BusyWait {
  /** 1 for the first retry. */
  retry: number;
  /** Retries left after this one. */
  retriesLeft: number;
  /** How long the client waits before sending again. */
  waitMs: number;
}

/**
 * How a 503 is retried: the server's Retry-After or the backoff, whichever is longer, the backoff doubling from
 * `baseMs` up to `maxMs`, `retries` times at most (defaults: 4 retries, 2 s doubling to 20 s, about 40 s in all with
 * the server's 5 s Retry-After). 0 retries turns it off.
 */
export interface BusyRetryPolicy {
  retries: number;
  baseMs: number;
  maxMs: number;
}

export const defaultBusyRetry: BusyRetryPolicy = { retries: 4, baseMs: 2_000, maxMs: 20_000 };

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
  /** Retries of a 503 (server busy or its storage down; nothing was stored): defaultBusyRetry when unset. */
  busyRetry?: BusyRetryPolicy;
  /** Every call's busy waits (a screen may tell the person the server is busy and the call goes on). */
  onBusy?: (wait: BusyWait & { route: RouteName }) => void;
  /** Waits between retries (tests pass a fake clock). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The server's Retry-After in ms: seconds, or an HTTP date; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number {
  if (!header) return 0;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now) : 0;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const now = deps.now ?? (() => new Date());
  const busyRetry = deps.busyRetry ?? defaultBusyRetry;
  const sleep = deps.sleep ?? abortableSleep;

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
    const url = urlOf(name, options);
    for (let retry = 1; ; retry += 1) {
      try {
        response = await transport(url, init, multipart?.upload);
      } catch (error) {
        if (isAbortError(error)) throw error;
        throw new ApiError(name, null, describe(error));
      }
      // A 503 (an engine's queue full, storage down, a node shutting down) stored nothing: wait and send it again.
      if (response.status !== 503 || retry > busyRetry.retries) break;
      await response.body?.cancel().catch(() => undefined);
      const backoff = Math.min(busyRetry.maxMs, busyRetry.baseMs * 2 ** (retry - 1));
      const waitMs = Math.min(busyRetry.maxMs, Math.max(backoff, retryAfterMs(response.headers.get('retry-after'), now().getTime())));
      const wait = { retry, retriesLeft: busyRetry.retries - retry, waitMs };
      options.onBusy?.(wait);
      deps.onBusy?.({ ...wait, route: name });
      await sleep(waitMs, options.signal);
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
