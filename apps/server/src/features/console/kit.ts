import { createHash, createHmac } from 'node:crypto';
import { consoleCsrfHeader, consoleError, type ConsoleFieldErrors, type ConsoleUser as ConsoleUserWire } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../../crypto/apikeys.js';
import type { Deps } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { findGrantorById } from '../../store/grantors.js';
import type { ConsoleConfig } from './config.js';
import * as store from './store.js';

export const sessionCookie = 'kyc_console';
const cookiePath = '/console';

function readCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === sessionCookie) return value.join('=') || undefined;
  }
  return undefined;
}

function setCookie(reply: FastifyReply, config: ConsoleConfig, value: string, maxAgeSeconds: number): void {
  const attributes = [`${sessionCookie}=${value}`, `Path=${cookiePath}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (config.cookieSecure) attributes.push('Secure');
  reply.header('set-cookie', attributes.join('; '));
}

export const emailSubject = (email: string) => `email:${createHash('sha256').update(store.normaliseEmail(email)).digest('hex')}`;
export const ipSubject = (ip: string) => `ip:${ip}`;

/** A 400 naming the refused fields, each with its Spanish text for the form. */
export function fieldErrors(reply: FastifyReply, fields: Record<string, string>) {
  const body: ConsoleFieldErrors = { status: 400, message: `Invalid request: ${Object.keys(fields).join(', ')}`, message_client: 'Revisa los campos marcados.', fields };
  return reply.code(400).send(body);
}

/**
 * The grantor whose data a user sees: their own; a platform operator's choice (400 without one). Asking for another
 * grantor than one's own is refused (403): a grantor's staff never see another grantor.
 */
export function grantorOf(user: store.ConsoleUser, asked: string | undefined): string {
  if (user.role === 'operator') {
    if (!asked) throw new HttpError(400, 'Invalid request: a platform operator chooses a grantor (grantorId)', 'Elige un otorgante.');
    return asked.toLowerCase();
  }
  if (asked && asked.toLowerCase() !== user.grantorId) throw new HttpError(403, "Another grantor's data is not yours to see");
  return user.grantorId!;
}

/** The `grantorId` of the request's query string as sent (routes with a query schema of their own strip it). */
function askedGrantor(request: FastifyRequest): string | undefined {
  const asked = new URL(request.url, 'http://console.invalid').searchParams.get('grantorId') ?? undefined;
  if (asked !== undefined && (asked.length === 0 || asked.length > 100)) throw new HttpError(400, 'Invalid request: query parameter grantorId');
  return asked;
}

/** Roles that may approve or reject a case; a viewer only reads, a platform operator does not decide for a lender. */
export const reviewerRoles: ReadonlySet<store.Role> = new Set(['admin', 'reviewer']);

/** What a refused non-admin gets and what the audit calls it. */
export interface Refusal {
  action: 'settings_refused' | 'webhook_refused';
  message: string;
  text: string;
}

const settingsRefusal: Refusal = { action: 'settings_refused', message: 'Only an admin changes the settings', text: 'Solo un administrador puede ver y cambiar la configuración.' };

/**
 * What every console route file shares: the session cookie, the session and CSRF checks, the common error
 * responses and the `no-store` header. Built once per app by registerConsoleRoutes.
 */
export function createConsoleKit({ db, cipher, blobs, caches }: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'caches'>, config: ConsoleConfig) {
  const times: store.SessionTimes = { idleMs: config.sessionIdleMinutes * 60_000, absoluteMs: config.sessionAbsoluteHours * 3_600_000 };
  const csrfKey = cipher.deriveKey('console-csrf');
  const csrfToken = (idHash: string) => createHmac('sha256', csrfKey).update(idHash).digest('base64url');
  const errors = { 400: consoleError, 401: consoleError, 403: consoleError, 404: consoleError, 409: consoleError, 429: consoleError };

  async function wireUser(user: store.ConsoleUser): Promise<ConsoleUserWire> {
    const grantor = user.grantorId ? await findGrantorById(db, user.grantorId) : undefined;
    return { email: user.email, role: user.role, grantorId: user.grantorId, grantorName: grantor?.name ?? null };
  }

  /** The request's session and user, or 401; `stage` is the stage the call needs. */
  async function requireSession(request: FastifyRequest, reply: FastifyReply, stage: 'password' | 'active' = 'active') {
    const value = readCookie(request);
    const session = value ? await store.findSession(db, value) : undefined;
    const user = session ? await store.findUserById(db, cipher, session.userId) : undefined;
    if (!session || !user || !user.active || session.stage !== stage) {
      if (value) clearCookie(reply);
      throw new HttpError(401, 'Not signed in', 'Tu sesión terminó. Vuelve a iniciar sesión.');
    }
    return { session, user };
  }

  /** Every state-changing call with a session carries its CSRF token in a header (docs/decisions.md). */
  function requireCsrf(request: FastifyRequest, session: store.ConsoleSession): void {
    const presented = request.headers[consoleCsrfHeader];
    if (typeof presented !== 'string' || !safeEqual(presented, csrfToken(session.idHash))) {
      throw new HttpError(403, 'Missing or wrong CSRF token', 'La página caducó. Recárgala e inténtalo de nuevo.');
    }
  }

  const clearCookie = (reply: FastifyReply) => setCookie(reply, config, '', 0);
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  const touch = (session: store.ConsoleSession) => store.touchSession(db, session, times.idleMs);

  /** A signed-in call: no-store, the session (and its CSRF token when `csrf`), the idle expiry moved forward. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply, csrf = false) {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    if (csrf) requireCsrf(request, session);
    await touch(session);
    return { session, user };
  }

  /**
   * The signed-in admin of a grantor and that grantor, or a platform operator and the grantor named by `grantorId`
   * (404 when it does not exist); anyone else 403, audited (the settings, users and webhook areas).
   */
  async function signedInAdmin(request: FastifyRequest, reply: FastifyReply, csrf: boolean, refusal: Refusal = settingsRefusal) {
    const { user } = await signedIn(request, reply, csrf);
    if (user.role !== 'admin' && user.role !== 'operator') {
      await store.audit(db, {
        action: refusal.action,
        userId: user.id,
        grantorId: user.grantorId,
        ip: request.ip,
        detail: { path: request.routeOptions.url ?? null, method: request.method, role: user.role },
      });
      throw new HttpError(403, refusal.message, refusal.text);
    }
    const grantorId = grantorOf(user, askedGrantor(request));
    if (user.role === 'operator' && !(await findGrantorById(db, grantorId))) throw new HttpError(404, 'Grantor not found', 'No encontramos ese otorgante.');
    return { user, grantorId };
  }

  return {
    db,
    cipher,
    blobs,
    caches,
    config,
    times,
    errors,
    hidden: { hide: true } as const,
    csrfToken,
    wireUser,
    requireSession,
    requireCsrf,
    readCookie,
    setCookie: (reply: FastifyReply, value: string, maxAgeSeconds: number) => setCookie(reply, config, value, maxAgeSeconds),
    clearCookie,
    noStore,
    touch,
    signedIn,
    signedInAdmin,
  };
}

export type ConsoleKit = ReturnType<typeof createConsoleKit>;
