import { randomBytes } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { hashPassword } from './passwords.js';
import * as store from './store.js';
import { generateTotpSecret, otpauthUri } from './totp.js';

/** A staff user as the settings screen lists it (no password hash, no TOTP secret). */
export interface StaffUser {
  id: string;
  email: string;
  role: store.Role;
  active: boolean;
  totp: boolean;
  createdAt: string;
}

export async function listStaff(db: Db, grantorId: string): Promise<StaffUser[]> {
  const rows = await db
    .selectFrom('console_users')
    .select(['id', 'email', 'role', 'active', 'totp_secret_enc', 'created_at'])
    .where('grantor_id', '=', grantorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role as store.Role, active: r.active === 1, totp: r.totp_secret_enc !== null, createdAt: r.created_at }));
}

export async function findStaff(db: Db, grantorId: string, id: string): Promise<StaffUser | undefined> {
  return (await listStaff(db, grantorId)).find((u) => u.id === id);
}

/** Active admins of the grantor other than `exceptId`: a change that would leave none is refused. */
export async function otherActiveAdmins(db: Db, grantorId: string, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('console_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('grantor_id', '=', grantorId)
    .where('role', '=', 'admin')
    .where('active', '=', 1)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateStaff(db: Db, id: string, change: { role?: store.Role; active?: boolean }, now: Date = new Date()): Promise<void> {
  const set: { role?: string; active?: number; updated_at: string } = { updated_at: now.toISOString() };
  if (change.role !== undefined) set.role = change.role;
  if (change.active !== undefined) set.active = change.active ? 1 : 0;
  await db.updateTable('console_users').set(set).where('id', '=', id).execute();
  // A disabled user, or one whose role changed, signs in again: their open sessions end now.
  await db.deleteFrom('console_sessions').where('user_id', '=', id).execute();
}

export const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * A new staff user of the grantor with a generated password (shown once, as `kyc-grantor console-user-create`
 * prints it) and, for an admin or on request, a TOTP secret shown once as an otpauth:// URI.
 */
export async function createStaff(db: Db, cipher: DataCipher, grantorId: string, input: { email: string; role: store.Role; totp: boolean }) {
  const password = randomBytes(18).toString('base64url');
  const secret = input.role === 'admin' || input.totp ? generateTotpSecret() : null;
  const id = await store.insertUser(db, cipher, { grantorId, email: input.email, role: input.role, passwordHash: await hashPassword(password), totpSecret: secret });
  return { id, password, totpUri: secret ? otpauthUri(secret, store.normaliseEmail(input.email), 'KYC consola') : null };
}

/** A new TOTP secret for the user (the old one stops working at once); returns its otpauth:// URI, shown once. */
export async function resetTotp(db: Db, cipher: DataCipher, id: string, email: string, now: Date = new Date()): Promise<string> {
  const secret = generateTotpSecret();
  await db
    .updateTable('console_users')
    .set({ totp_secret_enc: cipher.encrypt(secret, store.totpContext(id)), totp_last_step: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('console_sessions').where('user_id', '=', id).execute();
  return otpauthUri(secret, email, 'KYC consola');
}
