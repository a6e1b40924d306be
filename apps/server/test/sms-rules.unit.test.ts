import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeMatches, decideSend, decideVerify, generateCode, hashCode, newSalt, phoneHash, smsRules, smsText } from '../src/features/sms/rules.js';

describe('SMS code rules', () => {
  it('codes are 6 digits, with leading zeros, and spread over the range', () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10);
  });

  it('hashes with a per-code salt and a server key; compares in constant time', () => {
    const key = randomBytes(32);
    const saltA = newSalt();
    const saltB = newSalt();
    expect(saltA).not.toBe(saltB);
    expect(hashCode(key, saltA, '123456')).not.toBe(hashCode(key, saltB, '123456'));
    expect(hashCode(key, saltA, '123456')).not.toBe(hashCode(randomBytes(32), saltA, '123456'));
    const stored = hashCode(key, saltA, '123456');
    expect(codeMatches(key, saltA, '123456', stored)).toBe(true);
    expect(codeMatches(key, saltA, '123457', stored)).toBe(false);
    expect(codeMatches(key, saltB, '123456', stored)).toBe(false);
    expect(phoneHash(key, '52', '5512345678')).not.toBe(phoneHash(key, '51', '5512345678'));
  });

  it('send decisions: first send, 30 s wait, cap', () => {
    const now = 1_000_000;
    expect(decideSend([], now)).toEqual({ kind: 'send' });
    expect(decideSend([now - 10_000], now)).toEqual({ kind: 'wait', retryAfterMs: 20_000 });
    expect(decideSend([now - smsRules.resendAfterMs], now)).toEqual({ kind: 'send' });
    expect(
      decideSend(
        Array.from({ length: smsRules.maxSends }, (_, i) => now - 3_600_000 + i),
        now,
      ),
    ).toEqual({ kind: 'limit' });
  });

  it('verify decisions: none, expired, exhausted, verified, check', () => {
    const now = 1_000_000;
    expect(decideVerify(undefined, now)).toBe('no_code');
    expect(decideVerify({ state: 'active', attempts: 0, expiresAt: now + 1 }, now)).toBe('check');
    expect(decideVerify({ state: 'active', attempts: 0, expiresAt: now }, now)).toBe('expired');
    expect(decideVerify({ state: 'active', attempts: smsRules.maxAttempts, expiresAt: now + 1 }, now)).toBe('exhausted');
    expect(decideVerify({ state: 'exhausted', attempts: 1, expiresAt: now + 1 }, now)).toBe('exhausted');
    expect(decideVerify({ state: 'superseded', attempts: 0, expiresAt: now + 1 }, now)).toBe('no_code');
    expect(decideVerify({ state: 'verified', attempts: 1, expiresAt: now - 1 }, now)).toBe('already_verified');
  });

  it('the message names the grantor, the code and its validity', () => {
    expect(smsText('Demo', '042917')).toBe('Demo: tu código de verificación es 042917. Vence en 10 minutos. No lo compartas con nadie.');
  });
});
