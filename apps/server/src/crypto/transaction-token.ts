import { hkdfSync } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppCaches } from '../caches.js';
import type { Config } from '../config.js';
import { loadLinkKey } from './link-key.js';

/**
 * The per-transaction token of the customer's browser (issue #15): an HS256 JWT naming one transaction, its user and
 * its grantor, issued when the transaction starts and sent back as X-Transaction-Token on the flow's calls that
 * answer the person's own data. Its key is derived from the result-link key, so every node that verifies result
 * links verifies these too, and a token can never pass for a link (other key, other audience).
 */
export const transactionTokenAudience = 'kyc-transaction';

export interface TransactionClaims {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
}

export interface TransactionTokens {
  issue(claims: TransactionClaims, now?: Date): Promise<string>;
  /** The claims of a valid token, or why it is refused. */
  verify(token: string, now?: Date): Promise<TransactionClaims | { refused: 'expired' | 'invalid' }>;
}

/** The app's token issuer and verifier, its key derived once and kept in the app's caches. */
export function transactionTokens(deps: { config: Pick<Config, 'resultLinkKey' | 'dataDir' | 'database' | 'dataEncryptionKey' | 'transactionTokenHours'>; caches: AppCaches }): TransactionTokens {
  return deps.caches.slot('auth.transactionTokens', () => createTransactionTokens(deps.config));
}

/** Issues and verifies transaction tokens with the key derived from the config's result-link key. */
export function createTransactionTokens(config: Pick<Config, 'resultLinkKey' | 'dataDir' | 'database' | 'dataEncryptionKey' | 'transactionTokenHours'>): TransactionTokens {
  const key = Buffer.from(hkdfSync('sha256', loadLinkKey(config).key, Buffer.alloc(0), 'kyc transaction token v1', 32));
  const tokens: TransactionTokens = {
    issue: (claims, now = new Date()) => {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ usr: claims.uuidUser, oto: claims.grantorId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.uuidTrx)
        .setAudience(transactionTokenAudience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + config.transactionTokenHours * 3600)
        .sign(key);
    },
    verify: async (token, now = new Date()) => {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: transactionTokenAudience, currentDate: now });
        if (typeof payload.sub !== 'string' || typeof payload.usr !== 'string' || typeof payload.oto !== 'string') return { refused: 'invalid' };
        return { uuidTrx: payload.sub, uuidUser: payload.usr, grantorId: payload.oto };
      } catch (error) {
        return { refused: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
  return tokens;
}
