import { randomBytes } from 'node:crypto';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { findGrantorById } from '../../store/grantors.js';
import { hashPassword } from './passwords.js';
import * as store from './store.js';
import { generateTotpSecret, otpauthUri } from './totp.js';

export interface ConsoleUserInput {
  grantorId: string | undefined;
  email: string | undefined;
  role: string | undefined;
  /** Also give a reviewer or viewer a second factor (admins and operators always get one). */
  totp: boolean;
}

export class ConsoleCliError extends Error {
  override name = 'ConsoleCliError';
}

const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * Creates a console user with a generated password, printed once like an api key, and (for admins, operators, or
 * on request) a TOTP secret printed once as the otpauth:// URI an authenticator app reads.
 */
export async function createConsoleUser(db: Db, cipher: DataCipher, input: ConsoleUserInput, out: (line: string) => void): Promise<void> {
  const role = input.role ?? 'admin';
  if (!(store.roles as readonly string[]).includes(role)) throw new ConsoleCliError(`--role must be one of ${store.roles.join(', ')}`);
  const email = store.normaliseEmail(input.email ?? '');
  if (!emailPattern.test(email)) throw new ConsoleCliError('--email must be an e-mail address');
  let grantorId: string | null = null;
  if (role === 'operator') {
    if (input.grantorId) throw new ConsoleCliError('a platform operator belongs to no grantor: leave out --grantor');
  } else {
    if (!input.grantorId) throw new ConsoleCliError('--grantor <id> is required (except for --role operator)');
    const grantor = await findGrantorById(db, input.grantorId.toLowerCase());
    if (!grantor) throw new ConsoleCliError(`no grantor with id ${input.grantorId}`);
    grantorId = grantor.id;
  }
  if (await store.findUserByEmail(db, cipher, email)) throw new ConsoleCliError(`a console user with e-mail ${email} already exists`);
  // 18 random bytes: 24 base64url characters, far above what an online guess (with lockout) can reach.
  const password = randomBytes(18).toString('base64url');
  const secret = role === 'admin' || role === 'operator' || input.totp ? generateTotpSecret() : null;
  const id = await store.insertUser(db, cipher, { grantorId, email, role: role as store.Role, passwordHash: await hashPassword(password), totpSecret: secret });
  out(`Console user created: ${email} (${role}${grantorId ? `, grantor ${grantorId}` : ', every grantor'})`);
  out(`  id:       ${id}`);
  out(`  password: ${password}`);
  if (secret) {
    out(`  totp:     ${otpauthUri(secret, email, 'KYC consola')}`);
    out('Add the totp URI to an authenticator app (as text, or as a QR code: qrencode -t ansiutf8 "<uri>").');
  }
  out('The password and the TOTP secret are shown only now: hand them over privately. Sign in at /console.');
}
