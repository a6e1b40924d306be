import { consoleSessionState, consolePaths, consoleSignIn, consoleTotp } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { emailSubject, ipSubject, type ConsoleKit } from './kit.js';
import { decoyHash, verifyPassword } from './passwords.js';
import * as store from './store.js';
import { matchTotp } from './totp.js';

/** A password accepted with the code still due stays usable this long. */
const totpStageMs = 5 * 60_000;
const windowMs = 15 * 60_000;
/** Per e-mail address: 5 failures in 15 minutes lock it for 15 minutes. */
export const userLockout: store.LockoutPolicy = { maxFailures: 5, windowMs, lockMs: 15 * 60_000 };
/** Per client address: more, since an office may sign in from one address (NAT). */
export const ipLockout: store.LockoutPolicy = { maxFailures: 20, windowMs, lockMs: 15 * 60_000 };

const badCredentials = 'Correo, contraseña o código incorrectos.';
const lockedText = 'Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo.';

/** The sign-in has no session yet: a cross-site page cannot send JSON without a preflight, and a foreign Origin is refused. */
function requireSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = request.headers.host;
  if (!host || !URL.canParse(origin) || new URL(origin).host !== host) throw new HttpError(403, 'Cross-origin sign-in refused');
}

/** Sign-in (password, then TOTP when due), the session's state, and sign-out. */
export function registerSessionRoutes(app: ZodApp, kit: ConsoleKit): void {
  const { db, cipher, times, errors, hidden, noStore } = kit;

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
    kit.setCookie(reply, value, Math.floor(times.absoluteMs / 1000));
    await Promise.all([store.clearFailures(db, emailSubject(user.email)), store.audit(db, { action, userId: user.id, grantorId: user.grantorId, ip: request.ip })]);
    return { stage: 'active' as const, csrfToken: kit.csrfToken(store.hashSessionId(value)), user: await kit.wireUser(user) };
  }

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
    kit.setCookie(reply, value, totpStageMs / 1000);
    await store.audit(db, { action: 'sign_in_password', userId: user.id, grantorId: user.grantorId, ip: request.ip });
    return { stage: 'totp' as const, csrfToken: kit.csrfToken(store.hashSessionId(value)) };
  });

  app.post(consolePaths.sessionTotp, { schema: { ...hidden, body: consoleTotp, response: { 200: consoleSessionState, ...errors } } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await kit.requireSession(request, reply, 'password');
    kit.requireCsrf(request, session);
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
    const { session, user } = await kit.requireSession(request, reply);
    await kit.touch(session);
    return { stage: 'active' as const, csrfToken: kit.csrfToken(session.idHash), user: await kit.wireUser(user) };
  });

  app.delete(consolePaths.session, { schema: { ...hidden, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
    const value = kit.readCookie(request);
    const session = value ? await store.findSession(db, value) : undefined;
    if (session) {
      kit.requireCsrf(request, session);
      await store.deleteSession(db, session.idHash);
      const user = await store.findUserById(db, cipher, session.userId);
      await store.audit(db, { action: 'sign_out', userId: session.userId, grantorId: user?.grantorId ?? null, ip: request.ip });
    }
    kit.clearCookie(reply);
    return reply.code(204).send(null);
  });
}
