import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Staff passwords, hashed with scrypt (memory-hard, in node:crypto: no native add-on to build). Parameters are
 * stored with each hash, so they can be raised later without invalidating existing passwords
 * (docs/decisions.md, "Console sign-in").
 */
export const scryptParams = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyBytes = 32;
const saltBytes = 16;
export const minPasswordLength = 12;
export const maxPasswordLength = 200;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (32 MiB at the defaults); the default maxmem (32 MiB) is just short of it.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, scryptParams);
  const { N, r, p } = scryptParams;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verified against when the e-mail is unknown, so both answers take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < minPasswordLength) return `the password must have at least ${minPasswordLength} characters`;
  if (password.length > maxPasswordLength) return `the password must have at most ${maxPasswordLength} characters`;
  return null;
}
