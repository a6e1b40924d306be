import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new api key: 32 random bytes, base64url (43 characters, safe in a URL path such as /{apikey}). */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 hex of the key: the lookup value stored instead of the key. Keys are high-entropy random
 * strings, so a fast hash is enough (no password stretching needed).
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first characters kept in clear so that support can tell keys apart. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 4);
}

/** Constant-time comparison of two hex digests (or any strings of equal length). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the presented key matches a stored hash, compared in constant time. */
export function apiKeyMatches(presented: string, storedHash: string): boolean {
  return safeEqual(hashApiKey(presented), storedHash);
}
