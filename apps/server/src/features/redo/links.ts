import { redoPagePath, redoTexts, type ConsoleRedoStep } from '@kyc/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../store/db.js';
import { RefusedError, type Reason } from '../../domain/refusal.js';
import type {} from './tables.js';

const clientTexts: Partial<Record<Reason, string>> = { link_expired: redoTexts.expired, link_consumed: redoTexts.used };
/** A refusal of the link with the customer's text (the result link's reasons, so the same statuses). */
const refused = (reason: Reason, message: string) => new RefusedError(reason, message, clientTexts[reason] ?? redoTexts.invalid);

/**
 * The redo link's credential: the result link's mechanism (HS256 with the same RESULT_LINK_KEY, features/results/
 * links.ts) under its own audience, bound to one stored redo request (`jti`), its user, transaction, grantor and
 * step, expiring with it. The stored row decides what the signature cannot: used (completed) or cancelled.
 */
const issuer = 'kyc-onboarding';
const audience = 'redo';
const jwtShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface RedoSubject {
  redoId: string;
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
  step: ConsoleRedoStep;
  expiresAt: Date;
}

export async function signRedoCredential(linkKey: Buffer, subject: RedoSubject): Promise<string> {
  return new SignJWT({ trx: subject.uuidTrx, oto: subject.grantorId, stp: subject.step })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(subject.redoId)
    .setSubject(subject.uuidUser)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(subject.expiresAt.getTime() / 1000))
    .sign(linkKey);
}

/** The flow's page the link opens. */
export function redoUrl(baseUrl: string, credential: string): string {
  return `${baseUrl}${redoPagePath}?${new URLSearchParams({ token: credential }).toString()}`;
}

export interface OpenRedo extends RedoSubject {
  createdAt: string;
}

/**
 * The pending redo a credential names: signature, audience, expiry and binding to the stored row; refused once
 * completed or cancelled (410, like a consulted result link) or expired (410).
 */
export async function checkRedoCredential(ctx: { db: Db; linkKey: Buffer }, credential: string | undefined, now: Date = new Date()): Promise<OpenRedo> {
  if (!credential) throw refused('link_credential_missing', 'The redo link credential is missing (X-Redo-Token)');
  if (!jwtShape.test(credential)) throw refused('link_malformed', 'Malformed redo link credential');
  let claims;
  try {
    claims = (await jwtVerify(credential, ctx.linkKey, { algorithms: ['HS256'], issuer, audience, currentDate: now, requiredClaims: ['jti', 'sub', 'exp'] })).payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw refused('link_expired', 'The redo link expired');
    throw refused('link_tampered', 'The redo link credential is not valid (bad signature or altered)');
  }
  const row = await ctx.db.selectFrom('redo_requests').selectAll().where('id', '=', String(claims.jti)).executeTakeFirst();
  if (!row) throw refused('link_unknown', 'Unknown redo link');
  if (row.uuid_user !== claims.sub || row.uuid_trx !== claims.trx || row.grantor_id !== claims.oto || row.step !== claims.stp) {
    throw refused('link_mismatch', 'The redo link credential does not match its record');
  }
  if (row.state !== 'pending') throw refused('link_consumed', row.state === 'completed' ? 'The redo link was already used' : 'The redo was withdrawn: the case was decided');
  if (Date.parse(row.expires_at) <= now.getTime()) throw refused('link_expired', 'The redo link expired');
  return {
    redoId: row.id,
    uuidTrx: row.uuid_trx,
    uuidUser: row.uuid_user,
    grantorId: row.grantor_id,
    step: row.step as ConsoleRedoStep,
    expiresAt: new Date(row.expires_at),
    createdAt: row.created_at,
  };
}
