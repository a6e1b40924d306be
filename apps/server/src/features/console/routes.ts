import { createHash, createHmac } from 'node:crypto';
import {
  consoleCaseQuery,
  consoleCasePage,
  consoleCase,
  consoleCaseFile,
  consoleCsrfHeader,
  consoleImageKinds,
  consoleReviewRequest,
  consoleError,
  consoleGrantors,
  consolePaths,
  consoleSessionState,
  consoleSignIn,
  consoleTotp,
  type ConsoleUser as ConsoleUserWire,
} from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { safeEqual } from '../../crypto/apikeys.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { assertTransactionAvailable } from '../../http/auth.js';
import { findGrantorById, listGrantors } from '../../store/grantors.js';
import { findTransaction } from '../../store/transactions.js';
import { listEvidence } from '../../store/evidence.js';
import { findOutcome } from '../results/outcomes.js';
import { imageBlobKey, readCaseFile } from './case-file.js';
import { listCases, scoreFinishedCases, type CaseStatus } from './cases.js';
import { recordReview } from './reviews.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import { registerCaseMediaRoutes } from './case-media-routes.js';
import { registerFunnelRoutes } from './funnel-routes.js';
import type { ConsoleConfig } from './config.js';
import { decoyHash, verifyPassword } from './passwords.js';
import * as store from './store.js';
import { matchTotp } from './totp.js';

export const sessionCookie = 'kyc_console';
const cookiePath = '/console';
/** A password accepted with the code still due stays usable this long. */
const totpStageMs = 5 * 60_000;
const windowMs = 15 * 60_000;
/** Per e-mail address: 5 failures in 15 minutes lock it for 15 minutes. */
export const userLockout: store.LockoutPolicy = { maxFailures: 5, windowMs, lockMs: 15 * 60_000 };
/** Per client address: more, since an office may sign in from one address (NAT). */
export const ipLockout: store.LockoutPolicy = { maxFailures: 20, windowMs, lockMs: 15 * 60_000 };

const badCredentials = 'Correo, contraseña o código incorrectos.';
const lockedText = 'Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo.';

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

const clearCookie = (reply: FastifyReply, config: ConsoleConfig) => setCookie(reply, config, '', 0);

const emailSubject = (email: string) => `email:${createHash('sha256').update(store.normaliseEmail(email)).digest('hex')}`;
const ipSubject = (ip: string) => `ip:${ip}`;

/** A query string date (YYYY-MM-DD) as the start of that day in UTC; `dayAfter` for an inclusive upper bound. */
function dayStart(day: string, dayAfter = false): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) throw new HttpError(400, `Invalid request: ${day} is not a date`);
  if (dayAfter) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

function encodeCursor(cursor: { createdAt: string; uuidTrx: string } | undefined): string | null {
  return cursor ? Buffer.from(JSON.stringify([cursor.createdAt, cursor.uuidTrx])).toString('base64url') : null;
}

function decodeCursor(text: string | undefined): { createdAt: string; uuidTrx: string } | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { createdAt: value[0], uuidTrx: value[1] };
  } catch {
    // falls through
  }
  throw new HttpError(400, 'Invalid request: query parameter cursor is not one this service issued');
}

/** Roles that may approve or reject a case; a viewer only reads, a platform operator does not decide for a lender. */
const reviewerRoles: ReadonlySet<store.Role> = new Set(['admin', 'reviewer']);

export function registerConsoleRoutes(app: ZodApp, deps: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'config'>, config: ConsoleConfig): void {
  const { db, cipher, blobs } = deps;
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
      if (value) clearCookie(reply, config);
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

  /** The sign-in has no session yet: a cross-site page cannot send JSON without a preflight, and a foreign Origin is refused. */
  function requireSameOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const host = request.headers.host;
    if (!host || !URL.canParse(origin) || new URL(origin).host !== host) throw new HttpError(403, 'Cross-origin sign-in refused');
  }

  /** Counts a failure against the e-mail and the address; audits it and the lockout it may cause. */
  async function failure(request: FastifyRequest, email: string, user: store.ConsoleUser | undefined, action: 'sign_in_failed' | 'totp_failed') {
    const base = { userId: user?.id ?? null, grantorId: user?.grantorId ?? null, ip: request.ip };
    await store.audit(db, { ...base, action, detail: { email: store.normaliseEmail(email) } });
    const [userLock, ipLock] = await Promise.all([store.recordFailure(db, emailSubject(email), userLockout), store.recordFailure(db, ipSubject(request.ip), ipLockout)]);
    if (userLock || ipLock) {
      await store.audit(db, { ...base, action: 'locked_out', detail: { email: store.normaliseEmail(email), ...(userLock ? { userUntil: userLock } : {}), ...(ipLock ? { ipUntil: ipLock } : {}) } });
    }
  }

  async function assertNotLocked(request: FastifyRequest, email: string, user?: store.ConsoleUser) {
    const [userLock, ipLock] = await Promise.all([store.lockedUntil(db, emailSubject(email)), store.lockedUntil(db, ipSubject(request.ip))]);
    if (userLock || ipLock) {
      await store.audit(db, {
        action: 'sign_in_failed',
        userId: user?.id ?? null,
        grantorId: user?.grantorId ?? null,
        ip: request.ip,
        detail: { email: store.normaliseEmail(email), reason: 'locked' },
      });
      throw new HttpError(429, 'Locked after repeated failures', lockedText);
    }
  }

  async function activate(reply: FastifyReply, request: FastifyRequest, user: store.ConsoleUser, action: 'sign_in') {
    const value = await store.createSession(db, user.id, 'active', times);
    setCookie(reply, config, value, Math.floor(times.absoluteMs / 1000));
    await Promise.all([store.clearFailures(db, emailSubject(user.email)), store.audit(db, { action, userId: user.id, grantorId: user.grantorId, ip: request.ip })]);
    return { stage: 'active' as const, csrfToken: csrfToken(store.hashSessionId(value)), user: await wireUser(user) };
  }

  const hidden = { hide: true } as const;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.post(consolePaths.session, { schema: { ...hidden, body: consoleSignIn, response: { 200: consoleSessionState, ...errors } } }, async (request, reply) => {
    requireSameOrigin(request);
    noStore(reply);
    const { email, password } = request.body;
    const user = await store.findUserByEmail(db, cipher, email);
    await assertNotLocked(request, email, user);
    // An unknown e-mail costs one scrypt too, so the answer's time does not tell which addresses exist.
    const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !user.active || !passwordOk) {
      await failure(request, email, user, 'sign_in_failed');
      throw new HttpError(401, 'Wrong e-mail or password', badCredentials);
    }
    if (!store.totpRequired(user)) return activate(reply, request, user, 'sign_in');
    if (!user.totpSecret) {
      throw new HttpError(403, 'Two-factor enrolment is required before signing in', 'Tu usuario necesita un segundo factor: pide a tu administrador que lo active.');
    }
    const value = await store.createSession(db, user.id, 'password', { idleMs: totpStageMs, absoluteMs: totpStageMs });
    setCookie(reply, config, value, totpStageMs / 1000);
    await store.audit(db, { action: 'sign_in_password', userId: user.id, grantorId: user.grantorId, ip: request.ip });
    return { stage: 'totp' as const, csrfToken: csrfToken(store.hashSessionId(value)) };
  });

  app.post(consolePaths.sessionTotp, { schema: { ...hidden, body: consoleTotp, response: { 200: consoleSessionState, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply, 'password');
    requireCsrf(request, session);
    await assertNotLocked(request, user.email, user);
    const step = user.totpSecret ? matchTotp(user.totpSecret, request.body.code, new Date(), user.totpLastStep) : undefined;
    if (step === undefined || !(await store.useTotpStep(db, user.id, step))) {
      await failure(request, user.email, user, 'totp_failed');
      throw new HttpError(401, 'Wrong or reused code', badCredentials);
    }
    // A new session id once both factors passed: the half-signed-in one is discarded.
    await store.deleteSession(db, session.idHash);
    return activate(reply, request, user, 'sign_in');
  });

  app.get(consolePaths.session, { schema: { ...hidden, response: { 200: consoleSessionState, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await store.touchSession(db, session, times.idleMs);
    return { stage: 'active' as const, csrfToken: csrfToken(session.idHash), user: await wireUser(user) };
  });

  app.delete(consolePaths.session, { schema: { ...hidden, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const value = readCookie(request);
    const session = value ? await store.findSession(db, value) : undefined;
    if (session) {
      requireCsrf(request, session);
      await store.deleteSession(db, session.idHash);
      const user = await store.findUserById(db, cipher, session.userId);
      await store.audit(db, { action: 'sign_out', userId: session.userId, grantorId: user?.grantorId ?? null, ip: request.ip });
    }
    clearCookie(reply, config);
    return reply.code(204).send(null);
  });

  /** The grantor whose cases a user sees: their own; a platform operator's choice. */
  function grantorOf(user: store.ConsoleUser, asked: string | undefined): string {
    if (user.role === 'operator') {
      if (!asked) throw new HttpError(400, 'Invalid request: a platform operator chooses a grantor (grantorId)', 'Elige un otorgante.');
      return asked.toLowerCase();
    }
    if (asked && asked.toLowerCase() !== user.grantorId) throw new HttpError(403, "Another grantor's cases are not yours to see");
    return user.grantorId!;
  }

  app.get(consolePaths.grantors, { schema: { ...hidden, response: { 200: consoleGrantors, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await store.touchSession(db, session, times.idleMs);
    const all = await listGrantors(db);
    const visible = user.role === 'operator' ? all : all.filter((g) => g.id === user.grantorId);
    return { grantors: visible.map((g) => ({ id: g.id, name: g.name })) };
  });

  app.get(consolePaths.cases, { schema: { ...hidden, querystring: consoleCaseQuery, response: { 200: consoleCasePage, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await store.touchSession(db, session, times.idleMs);
    const query = request.query;
    const grantorId = grantorOf(user, query.grantorId);
    await scoreFinishedCases(db, cipher, grantorId);
    const page = await listCases(db, cipher, {
      grantorId,
      status: query.status as CaseStatus | undefined,
      from: query.from ? dayStart(query.from) : undefined,
      to: query.to ? dayStart(query.to, true) : undefined,
      q: query.q,
      cursor: decodeCursor(query.cursor),
      limit: query.limit,
      abandonAfterMs: config.abandonAfterMinutes * 60_000,
    });
    // The filters are audited, not the search text: it may be a CURP or a name.
    await store.audit(db, {
      action: 'cases_listed',
      userId: user.id,
      grantorId,
      ip: request.ip,
      detail: {
        status: query.status ?? null,
        from: query.from ?? null,
        to: query.to ?? null,
        searched: Boolean(query.q?.trim()),
        page: Boolean(query.cursor),
        shown: page.cases.map((c) => c.uuidTrx),
      },
    });
    return { cases: page.cases, nextCursor: encodeCursor(page.next) };
  });

  app.get(
    consolePaths.case,
    { schema: { ...hidden, params: z.object({ uuidTrx: z.string().max(64) }), querystring: z.object({ grantorId: z.string().max(100).optional() }), response: { 200: consoleCase, ...errors } } },
    async (request, reply) => {
      noStore(reply);
      const { session, user } = await requireSession(request, reply);
      await store.touchSession(db, session, times.idleMs);
      const grantorId = grantorOf(user, request.query.grantorId);
      const uuidTrx = request.params.uuidTrx.toLowerCase();
      const page = await listCases(db, cipher, { grantorId, q: undefined, limit: 1, abandonAfterMs: config.abandonAfterMinutes * 60_000, cursor: undefined, only: uuidTrx });
      const found = page.cases.find((c) => c.uuidTrx === uuidTrx);
      await store.audit(db, { action: found ? 'case_viewed' : 'case_refused', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx } });
      // Another grantor's case answers exactly like a missing one.
      if (!found) throw new HttpError(404, 'Case not found', 'No encontramos ese expediente.');
      return found;
    },
  );

  const caseParams = z.object({ uuidTrx: z.string().max(64) });
  const grantorQuery = z.object({ grantorId: z.string().max(100).optional() });
  const notFound = () => new HttpError(404, 'Case not found', 'No encontramos ese expediente.');

  /**
   * The case a user may see: one of their grantor's, or any for a platform operator (narrowed by grantorId when
   * given). Another grantor's case is refused exactly like a missing one, and the refusal is audited.
   */
  async function visibleCase(request: FastifyRequest, user: store.ConsoleUser, rawUuidTrx: string, asked: string | undefined) {
    const uuidTrx = rawUuidTrx.toLowerCase();
    const transaction = await findTransaction(db, uuidTrx);
    const grantorId = user.role === 'operator' ? (asked?.toLowerCase() ?? transaction?.grantorId) : user.grantorId;
    const visible = transaction && grantorId && transaction.grantorId === grantorId;
    const page = visible ? await listCases(db, cipher, { grantorId, q: undefined, limit: 1, abandonAfterMs: config.abandonAfterMinutes * 60_000, cursor: undefined, only: uuidTrx }) : undefined;
    const row = page?.cases.find((c) => c.uuidTrx === uuidTrx);
    if (!transaction || !row || !grantorId) {
      await store.audit(db, { action: 'case_refused', userId: user.id, grantorId: user.grantorId, ip: request.ip, detail: { uuidTrx } });
      throw notFound();
    }
    // Blocked at the person's request: nothing of the case is read, as on every other read (451).
    assertTransactionAvailable(transaction);
    return { row, transaction, grantorId };
  }

  app.get(consolePaths.caseFile, { schema: { ...hidden, params: caseParams, querystring: grantorQuery, response: { 200: consoleCaseFile, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await store.touchSession(db, session, times.idleMs);
    const { row, transaction, grantorId } = await visibleCase(request, user, request.params.uuidTrx, request.query.grantorId);
    const file = await readCaseFile(db, cipher, { row, uuidUser: transaction.uuidUser, grantorId, mayReview: reviewerRoles.has(user.role) });
    await store.audit(db, { action: 'case_file_viewed', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx } });
    return file;
  });

  app.get(consolePaths.caseImage, { schema: { ...hidden, params: caseParams.extend({ which: z.enum(consoleImageKinds) }), querystring: grantorQuery } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await store.touchSession(db, session, times.idleMs);
    const { row, grantorId } = await visibleCase(request, user, request.params.uuidTrx, request.query.grantorId);
    const key = imageBlobKey(await listEvidence(db, row.uuidTrx), request.params.which);
    if (!key) throw new HttpError(404, 'No such image in this case', 'Este expediente no tiene esa imagen.');
    // Decrypted here, for this signed-in user only; never cached by the browser or a proxy.
    const blob = await blobs.get(key);
    if (!blob.contentType.startsWith('image/')) throw new HttpError(404, 'No such image in this case', 'Este expediente no tiene esa imagen.');
    await store.audit(db, { action: 'case_image_viewed', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx, image: request.params.which } });
    return reply.header('content-type', blob.contentType).header('x-content-type-options', 'nosniff').header('content-disposition', 'inline').send(blob.buffer);
  });

  app.post(
    consolePaths.caseReview,
    { schema: { ...hidden, params: caseParams, querystring: grantorQuery, body: consoleReviewRequest, response: { 200: consoleCaseFile, ...errors } } },
    async (request, reply) => {
      noStore(reply);
      const { session, user } = await requireSession(request, reply);
      requireCsrf(request, session);
      await store.touchSession(db, session, times.idleMs);
      const uuidTrx = request.params.uuidTrx.toLowerCase();
      if (!reviewerRoles.has(user.role)) {
        await store.audit(db, { action: 'review_refused', userId: user.id, grantorId: user.grantorId, ip: request.ip, detail: { uuidTrx, role: user.role } });
        throw new HttpError(403, 'Only a reviewer or an admin may decide a case', 'Tu rol no permite aprobar ni rechazar expedientes.');
      }
      const { row, transaction, grantorId } = await visibleCase(request, user, uuidTrx, request.query.grantorId);
      if (!(await findOutcome(db, row.uuidTrx))) {
        throw new HttpError(409, 'The case is not finished: only a finished case is reviewed', 'Este expediente todavía no termina; podrás revisarlo cuando concluya.');
      }
      const before = await readCaseFile(db, cipher, { row, uuidUser: transaction.uuidUser, grantorId, mayReview: true });
      const { decision, reason, note } = request.body;
      const result = await recordReview(db, cipher, {
        uuidTrx: row.uuidTrx,
        uuidUser: transaction.uuidUser,
        grantorId,
        userId: user.id,
        ip: request.ip,
        decision,
        reason,
        note,
        flag: before.score.flag,
      });
      if (!result.reviewed) throw new HttpError(409, 'The case was already reviewed', 'Este expediente ya fue revisado.');
      const { row: after } = await visibleCase(request, user, uuidTrx, grantorId);
      return readCaseFile(db, cipher, { row: after, uuidUser: transaction.uuidUser, grantorId, mayReview: true });
    },
  );

  registerWebhookRoutes(app, { db, cipher }, { requireSession, requireCsrf, touch: (session) => store.touchSession(db, session, times.idleMs), noStore, errors });
  const touch = (session: store.ConsoleSession) => store.touchSession(db, session, times.idleMs);
  const helpers = { requireSession, requireCsrf, touch, noStore, errors, grantorOf, visibleCase, abandonAfterMs: config.abandonAfterMinutes * 60_000 };
  registerFunnelRoutes(app, deps, helpers);
  registerCaseMediaRoutes(app, deps, helpers);
}
