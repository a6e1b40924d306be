import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

const issuer = 'kyc-onboarding';
const audience = 'kyc-flow';

export interface LauncherClaims {
  /** The user id the identity call issued (the flow's cliente). */
  uuid: string;
  /** The grantor the token was issued to. */
  grantorId: string;
  /** The partner page's origin, from the Origin header of the auth call. */
  origin: string;
  expiresAt: Date;
}

export class LauncherTokenError extends Error {
  override name = 'LauncherTokenError';
}

/** Signs and checks the launcher's short-lived tokens (HS256, jose). */
export interface LauncherTokens {
  issue(claims: Omit<LauncherClaims, 'expiresAt'>, now?: Date): Promise<string>;
  verify(token: string, now?: Date): Promise<LauncherClaims>;
}

export function launcherTokens(secret: Buffer, ttlSeconds: number): LauncherTokens {
  const key = new Uint8Array(secret);
  return {
    async issue(claims, now = new Date()) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ oto: claims.grantorId, origin: claims.origin })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(claims.uuid)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verify(token, now = new Date()) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer, audience, algorithms: ['HS256'], currentDate: now, requiredClaims: ['sub', 'exp', 'iat'] });
        if (typeof payload.oto !== 'string' || typeof payload.origin !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') {
          throw new LauncherTokenError('token claims are incomplete');
        }
        return { uuid: payload.sub, grantorId: payload.oto, origin: payload.origin, expiresAt: new Date(payload.exp * 1000) };
      } catch (error) {
        if (error instanceof LauncherTokenError) throw error;
        if (error instanceof errors.JWTExpired) throw new LauncherTokenError('token expired');
        if (error instanceof errors.JOSEError) throw new LauncherTokenError(`token refused (${error.code})`);
        throw new LauncherTokenError('token unreadable');
      }
    },
  };
}

/** The origin of an http(s) URL, or null. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** ORIGENES_LAUNCHER: the listed origins; an empty list allows every origin only where `emptyAllowsAny` (older grantors, the demo). */
export function originAllowed(allowedList: string, origin: string, emptyAllowsAny: boolean): boolean {
  const allowed = allowedList
    .split(',')
    .map((item) => originOf(item.trim()))
    .filter((item): item is string => item !== null);
  return allowed.length === 0 ? emptyAllowsAny : allowed.includes(origin);
}
