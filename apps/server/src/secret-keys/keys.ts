import { randomBytes } from 'node:crypto';

/** What every generated secret server key starts with, so that a leaked one is recognisable (secret scanners, logs). */
export const secretKeyPrefix = 'sk_live_';

/** The demo grantor's documented secret (README): accepted only while DEMO_GRANTOR is on. */
export const demoSecretKey = 'demo-secret';
export const demoSecretKeyId = '00000000-0000-4000-8000-0000000000d5';

/** A new secret server key: the prefix and 32 random bytes in base64url (51 characters). */
export function generateSecretKey(): string {
  return `${secretKeyPrefix}${randomBytes(32).toString('base64url')}`;
}

/** The characters kept in clear to tell keys apart in listings: the prefix and 4 random characters. */
export function secretKeyHint(key: string): string {
  return key.startsWith(secretKeyPrefix) ? key.slice(0, secretKeyPrefix.length + 4) : key.slice(0, 4);
}
