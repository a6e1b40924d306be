import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** SMS code rules (docs/decisions.md "SMS codes"). */
export const smsRules = {
  digits: 6,
  ttlMs: 10 * 60_000,
  /** Wrong codes allowed per code before it is spent. */
  maxAttempts: 5,
  /** Spec §9: 'Reenviar codigo' after 30 s; the server refuses a faster resend. */
  resendAfterMs: 30_000,
  /** Codes sent per transaction (the first and four resends). */
  maxSends: 5,
} as const;

/** A uniformly random 6-digit code from the operating system's CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** smsRules.digits)).padStart(smsRules.digits, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/** HMAC-SHA256 keyed by the server's SMS key over the code's own salt and the code. */
export function hashCode(key: Buffer, salt: string, code: string): string {
  return createHmac('sha256', key).update(`${salt}:${code}`, 'utf8').digest('hex');
}

export function codeMatches(key: Buffer, salt: string, code: string, storedHash: string): boolean {
  const presented = Buffer.from(hashCode(key, salt, code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** HMAC of the full number: finds the number's code without decrypting stored numbers. */
export function phoneHash(key: Buffer, areaCode: string, number: string): string {
  return createHmac('sha256', key).update(`phone:${areaCode}:${number}`, 'utf8').digest('hex');
}

export type SendDecision = { kind: 'send' } | { kind: 'wait'; retryAfterMs: number } | { kind: 'limit' };

/** Whether a new code may be sent, given the creation times (epoch ms) of the transaction's earlier codes. */
export function decideSend(previous: readonly number[], now: number): SendDecision {
  if (previous.length >= smsRules.maxSends) return { kind: 'limit' };
  const last = previous.length > 0 ? Math.max(...previous) : null;
  if (last !== null && now - last < smsRules.resendAfterMs) return { kind: 'wait', retryAfterMs: smsRules.resendAfterMs - (now - last) };
  return { kind: 'send' };
}

export interface StoredCode {
  state: string;
  attempts: number;
  expiresAt: number;
}

export type VerifyDecision = 'no_code' | 'already_verified' | 'expired' | 'exhausted' | 'check';

/** What to do with a presented code before comparing it (the comparison spends an attempt). */
export function decideVerify(code: StoredCode | undefined, now: number): VerifyDecision {
  if (!code) return 'no_code';
  if (code.state === 'verified') return 'already_verified';
  if (code.state === 'exhausted' || code.attempts >= smsRules.maxAttempts) return 'exhausted';
  if (code.state !== 'active') return 'no_code';
  if (now >= code.expiresAt) return 'expired';
  return 'check';
}

/** The text sent to the user. */
export function smsText(grantorName: string, code: string): string {
  const who = grantorName.trim() ? `${grantorName.trim()}: ` : '';
  return `${who}tu código de verificación es ${code}. Vence en ${smsRules.ttlMs / 60_000} minutos. No lo compartas con nadie.`;
}
