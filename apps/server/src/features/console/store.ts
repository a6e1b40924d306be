import { createHash, randomBytes } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
import type { ConsoleUsersTable } from './tables.js';

export const roles = ['admin', 'reviewer', 'viewer', 'operator'] as const;
export type Role = (typeof roles)[number];

export interface ConsoleUser {
  id: string;
  grantorId: string | null;
  email: string;
  role: Role;
  passwordHash: string;
  totpSecret: string | null;
  totpLastStep: number | null;
  active: boolean;
}

/** Admins and platform operators cannot sign in on a password alone. */
export function totpRequired(user: Pick<ConsoleUser, 'role' | 'totpSecret'>): boolean {
  return user.role === 'admin' || user.role === 'operator' || user.totpSecret !== null;
}

export const totpContext = (userId: string) => `console-totp:${userId}`;

function toUser(cipher: DataCipher, row: ConsoleUsersTable): ConsoleUser {
  return {
    id: row.id,
    grantorId: row.grantor_id,
    email: row.email,
    role: row.role as Role,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret_enc === null ? null : cipher.decrypt(row.totp_secret_enc, totpContext(row.id)),
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    active: row.active === 1,
  };
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function insertUser(
  db: Db,
  cipher: DataCipher,
  input: { grantorId: string | null; email: string; role: Role; passwordHash: string; totpSecret: string | null },
  now: Date = new Date(),
): Promise<string> {
  const id = uuidv7(now.getTime());
  await db
    .insertInto('console_users')
    .values({
      id,
      grantor_id: input.grantorId,
      email: normaliseEmail(input.email),
      role: input.role,
      password_hash: input.passwordHash,
      totp_secret_enc: input.totpSecret === null ? null : cipher.encrypt(input.totpSecret, totpContext(id)),
      totp_last_step: null,
      active: 1,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  return id;
}

export async function findUserByEmail(db: Db, cipher: DataCipher, email: string): Promise<ConsoleUser | undefined> {
  const row = await db.selectFrom('console_users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row ? toUser(cipher, row) : undefined;
}

export async function findUserById(db: Db, cipher: DataCipher, id: string): Promise<ConsoleUser | undefined> {
  const row = await db.selectFrom('console_users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(cipher, row) : undefined;
}

/** Records the accepted TOTP step; false when a concurrent request used this step (or a later one) first. */
export async function useTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('console_users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// Sessions ------------------------------------------------------------------------------------------------

export const hashSessionId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

export interface SessionTimes {
  idleMs: number;
  absoluteMs: number;
}

export interface ConsoleSession {
  idHash: string;
  userId: string;
  stage: 'password' | 'active';
  expiresAt: string;
  absoluteExpiresAt: string;
}

/** A new session; returns the cookie's value (the only place the random id exists). */
export async function createSession(db: Db, userId: string, stage: ConsoleSession['stage'], times: SessionTimes, now: Date = new Date()): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const absolute = new Date(now.getTime() + times.absoluteMs);
  const idle = new Date(Math.min(now.getTime() + times.idleMs, absolute.getTime()));
  await db
    .insertInto('console_sessions')
    .values({
      id_hash: hashSessionId(id),
      user_id: userId,
      stage,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: idle.toISOString(),
      absolute_expires_at: absolute.toISOString(),
    })
    .execute();
  return id;
}

/** The live session of a cookie value; an expired one is deleted and undefined returned. */
export async function findSession(db: Db, cookieValue: string, now: Date = new Date()): Promise<ConsoleSession | undefined> {
  const idHash = hashSessionId(cookieValue);
  const row = await db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) return undefined;
  const at = now.toISOString();
  if (row.expires_at <= at || row.absolute_expires_at <= at) {
    await deleteSession(db, idHash);
    return undefined;
  }
  return { idHash, userId: row.user_id, stage: row.stage as ConsoleSession['stage'], expiresAt: row.expires_at, absoluteExpiresAt: row.absolute_expires_at };
}

/** Moves the idle expiry forward (at most one write a minute per session). */
export async function touchSession(db: Db, session: ConsoleSession, idleMs: number, now: Date = new Date()): Promise<void> {
  const next = new Date(Math.min(now.getTime() + idleMs, Date.parse(session.absoluteExpiresAt))).toISOString();
  if (Date.parse(next) - Date.parse(session.expiresAt) < 60_000) return;
  await db.updateTable('console_sessions').set({ expires_at: next, last_seen_at: now.toISOString() }).where('id_hash', '=', session.idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
}

// Lockout -------------------------------------------------------------------------------------------------

export interface LockoutPolicy {
  /** Failures within the window that lock the subject. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** When the subject is locked, until when. */
export async function lockedUntil(db: Db, subject: string, now: Date = new Date()): Promise<string | undefined> {
  const row = await db.selectFrom('console_lockouts').select('locked_until').where('subject', '=', subject).executeTakeFirst();
  return row?.locked_until && row.locked_until > now.toISOString() ? row.locked_until : undefined;
}

/** Counts a failure; returns the lock's end when this failure locked the subject. */
export async function recordFailure(db: Db, subject: string, policy: LockoutPolicy, now: Date = new Date()): Promise<string | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('console_lockouts').selectAll().where('subject', '=', subject).executeTakeFirst();
    const windowOpen = row && Date.parse(row.window_started_at) + policy.windowMs > now.getTime() && !(row.locked_until && row.locked_until <= now.toISOString());
    const failures = windowOpen ? Number(row.failures) + 1 : 1;
    const lock = failures >= policy.maxFailures ? new Date(now.getTime() + policy.lockMs).toISOString() : null;
    const values = { failures, window_started_at: windowOpen ? row.window_started_at : now.toISOString(), locked_until: lock };
    if (row) await tx.updateTable('console_lockouts').set(values).where('subject', '=', subject).execute();
    else
      await tx
        .insertInto('console_lockouts')
        .values({ subject, ...values })
        .execute();
    return lock ?? undefined;
  });
}

export async function clearFailures(db: Db, subject: string): Promise<void> {
  await db.deleteFrom('console_lockouts').where('subject', '=', subject).execute();
}

// Audit ---------------------------------------------------------------------------------------------------

export type AuditAction =
  | 'sign_in_password'
  | 'sign_in'
  | 'sign_in_failed'
  | 'totp_failed'
  | 'locked_out'
  | 'sign_out'
  | 'cases_listed'
  | 'case_viewed'
  | 'case_refused'
  | 'case_file_viewed'
  | 'case_image_viewed'
  | 'case_reviewed'
  | 'webhooks_viewed'
  | 'webhook_deliveries_viewed'
  | 'webhook_replayed'
  | 'webhook_refused'
  | 'review_refused'
  | 'data_subject_request'
  | 'settings_viewed'
  | 'settings_refused'
  | 'params_updated'
  | 'secret_key_created'
  | 'secret_key_rotated'
  | 'secret_key_revoked'
  | 'webhook_endpoint_added'
  | 'webhook_endpoint_removed'
  | 'user_created'
  | 'user_updated'
  | 'user_totp_reset'
  | 'retention_updated'
  | 'funnel_viewed'
  | 'case_video_viewed'
  | 'case_video_frames_viewed'
  | 'case_bundle_downloaded'
  | 'case_bundle_refused';

export async function audit(
  db: Db,
  entry: { action: AuditAction; userId?: string | null; grantorId?: string | null; ip: string; detail?: Record<string, unknown> },
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto('console_audit')
    .values({
      id: uuidv7(now.getTime()),
      action: entry.action,
      user_id: entry.userId ?? null,
      grantor_id: entry.grantorId ?? null,
      ip: entry.ip,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: now.toISOString(),
    })
    .execute();
}
