import type { AppCaches } from '../../caches.js';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../store/db.js';
import { uuidv7 } from '../../store/ids.js';
// Brings this feature's tables into the Database type (declaration merging; see store/schema.ts).
import type {} from './tables.js';
import { RefusedError, type Reason } from '../../domain/refusal.js';

/**
 * Result links (docs/flow.md §2 result-link flow, §4 "Result link"): a signed token (HS256) bound to the user, the
 * transaction, the grantor and one document, expiring at `fecha`. A link is consulted once, and only after the
 * customer re-verified their face for it: state issued → verified (verifyResultLink) → consumed (the download).
 * The states live in result_links so the single consultation holds across restarts and nodes.
 */
export type ResultDocument = 'reporte' | 'clausula' | 'autorizacion';
export const resultDocuments: readonly ResultDocument[] = ['reporte', 'clausula', 'autorizacion'];

/** What issuing and checking a link needs. */
export interface LinkKeys {
  db: Db;
  linkKey: Buffer;
  /** Base URL of this service (PUBLIC_URL), without a trailing slash. */
  baseUrl: string;
}

/** The app's link context: the keys and the app's caches (the link's grantor parameters are read through them). */
export interface LinkContext extends LinkKeys {
  caches: AppCaches;
}

export interface IssuedLink {
  linkId: string;
  /** Expiry, epoch ms: the spec's `fecha`. */
  fecha: number;
  /** The /pdf_token page of the flow with uuid, idOtorgante, fecha and uuidTrx (docs/flow.md §2) and the link credential `token`. */
  pdfTokenUrl: string;
  /** The link credential (signed, audience pdf_token): what the link flow sends as X-Consumer-Custom-ID. */
  credential: string;
}

export interface LinkSubject {
  uuidTrx: string;
  uuidUser: string;
  grantorId: string;
}

const issuer = 'kyc-onboarding';
const audience = 'enlace';
/** The link credential's audience: it authorises the face re-verification of its link, never a download. */
const credentialAudience = 'pdf_token';

/** Why a result link is refused (the HTTP layer's reasons table gives each its status). */
export type LinkRefusalReason = Extract<Reason, `link_${string}`>;

/** Refusals of a result link, each with its reason. */
export class LinkRefusedError extends RefusedError {
  override name = 'LinkRefusedError';
  constructor(reason: LinkRefusalReason, message: string) {
    super(reason, message);
  }
  override get reason(): LinkRefusalReason {
    return this.refusal.reason as LinkRefusalReason;
  }
}

export function pdfTokenUrl(baseUrl: string, subject: LinkSubject, fecha: number, credential: string): string {
  const query = new URLSearchParams({ uuid: subject.uuidUser, idOtorgante: subject.grantorId, fecha: String(fecha), uuidTrx: subject.uuidTrx, token: credential });
  return `${baseUrl}/pdf_token?${query.toString()}`;
}

/** Records a new link (state issued, or verified when the customer has just proved their presence). */
export async function issueResultLink(ctx: LinkKeys, subject: LinkSubject & { document: ResultDocument; expiresAt: Date; verified?: boolean }, now: Date = new Date()): Promise<IssuedLink> {
  if (subject.expiresAt.getTime() <= now.getTime()) throw new Error('a result link must expire in the future');
  const linkId = uuidv7(now.getTime());
  await ctx.db
    .insertInto('result_links')
    .values({
      id: linkId,
      uuid_trx: subject.uuidTrx,
      uuid_user: subject.uuidUser,
      grantor_id: subject.grantorId,
      document: subject.document,
      expires_at: subject.expiresAt.toISOString(),
      state: subject.verified ? 'verified' : 'issued',
      issued_at: now.toISOString(),
      verified_at: subject.verified ? now.toISOString() : null,
      consumed_at: null,
    })
    .execute();
  const fecha = subject.expiresAt.getTime();
  const credential = await signLinkCredential(ctx, { ...subject, linkId, fecha });
  return { linkId, fecha, pdfTokenUrl: pdfTokenUrl(ctx.baseUrl, subject, fecha, credential), credential };
}

/**
 * The credential of the /pdf_token URL (the link flow has no api key): bound to the link, its user, transaction
 * and grantor, expiring with the link. It authorises the link's codes and face videos (public_video_token).
 */
export async function signLinkCredential(ctx: Pick<LinkContext, 'linkKey'>, link: LinkSubject & { linkId: string; fecha: number }): Promise<string> {
  return new SignJWT({ trx: link.uuidTrx, oto: link.grantorId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(link.linkId)
    .setSubject(link.uuidUser)
    .setIssuer(issuer)
    .setAudience(credentialAudience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(link.fecha / 1000))
    .sign(ctx.linkKey);
}

export interface OpenLink extends LinkSubject {
  linkId: string;
  document: ResultDocument;
  fecha: number;
  state: 'issued' | 'verified';
}

/**
 * The live link of a credential: signature, expiry, binding to the stored link (and to `uuidUser` when given); refused once
 * consumed or expired. A verified link stays usable (the download failed: the flow goes back to the video).
 */
export async function checkLinkCredential(ctx: LinkKeys, credential: string, uuidUser?: string, now: Date = new Date()): Promise<OpenLink> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(credential)) {
    throw new LinkRefusedError('link_malformed', 'Malformed link credential');
  }
  let claims;
  try {
    const verified = await jwtVerify(credential, ctx.linkKey, {
      algorithms: ['HS256'],
      issuer,
      audience: credentialAudience,
      currentDate: now,
      requiredClaims: ['jti', 'sub', 'exp'],
    });
    claims = verified.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new LinkRefusedError('link_expired', 'The result link expired');
    throw new LinkRefusedError('link_tampered', 'The link credential is not valid (bad signature or altered)');
  }
  const row = await ctx.db.selectFrom('result_links').selectAll().where('id', '=', String(claims.jti)).executeTakeFirst();
  if (!row) throw new LinkRefusedError('link_unknown', 'Unknown result link');
  if (row.uuid_user !== claims.sub || row.uuid_trx !== claims.trx || row.grantor_id !== claims.oto) {
    throw new LinkRefusedError('link_mismatch', 'The link credential does not match its record');
  }
  if (uuidUser !== undefined && row.uuid_user !== uuidUser.trim().toLowerCase()) throw new LinkRefusedError('link_other_user', 'The result link belongs to another user');
  if (Date.parse(row.expires_at) <= now.getTime()) throw new LinkRefusedError('link_expired', 'The result link expired');
  if (row.state === 'consumed') throw new LinkRefusedError('link_consumed', 'The document of this link was already consulted');
  return {
    linkId: row.id,
    uuidTrx: row.uuid_trx,
    uuidUser: row.uuid_user,
    grantorId: row.grantor_id,
    document: row.document as ResultDocument,
    fecha: Date.parse(row.expires_at),
    state: row.state as OpenLink['state'],
  };
}

/** The signed token of a stored link; its URL is `${baseUrl}/v1/enlace/${token}`. */
export async function signLinkToken(ctx: Pick<LinkContext, 'linkKey'>, link: LinkSubject & { linkId: string; document: string; fecha: number }): Promise<string> {
  return new SignJWT({ trx: link.uuidTrx, oto: link.grantorId, doc: link.document })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(link.linkId)
    .setSubject(link.uuidUser)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(link.fecha / 1000))
    .sign(ctx.linkKey);
}

export function enlaceUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/v1/enlace/${token}`;
}

export interface VerifiedLink extends LinkSubject {
  linkId: string;
  document: ResultDocument;
  fecha: number;
  /** URL of the single download (the face result's documentLink). */
  documentLink: string;
}

type LinkRow = { id: string; uuid_trx: string; uuid_user: string; grantor_id: string; document: string; expires_at: string; state: string };

async function linkUrlOf(ctx: LinkKeys, row: LinkRow): Promise<VerifiedLink> {
  const fecha = Date.parse(row.expires_at);
  const subject = { uuidTrx: row.uuid_trx, uuidUser: row.uuid_user, grantorId: row.grantor_id };
  const token = await signLinkToken(ctx, { ...subject, linkId: row.id, document: row.document, fecha });
  return { ...subject, linkId: row.id, document: row.document as ResultDocument, fecha, documentLink: enlaceUrl(ctx.baseUrl, token) };
}

/**
 * Called by the face re-verification of the result-link flow (public_video_token) after a successful match: marks
 * the user's newest open link of the transaction (or the named link) verified and returns the download URL.
 * Refuses (LinkRefusedError) when there is no open link, it expired, or it was already consulted.
 */
export async function verifyResultLink(ctx: LinkKeys, request: { uuidUser: string; uuidTrx?: string; linkId?: string }, now: Date = new Date()): Promise<VerifiedLink> {
  let query = ctx.db.selectFrom('result_links').selectAll().where('uuid_user', '=', request.uuidUser.toLowerCase());
  if (request.uuidTrx) query = query.where('uuid_trx', '=', request.uuidTrx.toLowerCase());
  if (request.linkId) query = query.where('id', '=', request.linkId);
  const rows = await query.orderBy('id', 'desc').execute();
  if (rows.length === 0) throw new LinkRefusedError('link_unknown', 'No result link was issued for this user');
  const open = rows.filter((r) => r.state !== 'consumed' && Date.parse(r.expires_at) > now.getTime());
  const row = open[0];
  if (!row) {
    const consumed = rows.some((r) => r.state === 'consumed');
    throw consumed ? new LinkRefusedError('link_consumed', 'The document of this link was already consulted') : new LinkRefusedError('link_expired', 'The result link expired');
  }
  await ctx.db.updateTable('result_links').set({ state: 'verified', verified_at: now.toISOString() }).where('id', '=', row.id).where('state', '=', 'issued').execute();
  return linkUrlOf(ctx, row);
}

export interface ConsumableLink extends LinkSubject {
  linkId: string;
  document: ResultDocument;
}

/** Checks the token's signature, expiry and binding to the stored link; the link must be verified and unconsumed. */
export async function checkLinkToken(ctx: LinkKeys, token: string, now: Date = new Date()): Promise<ConsumableLink> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) {
    throw new LinkRefusedError('link_malformed', 'Malformed result link');
  }
  let claims;
  try {
    const verified = await jwtVerify(token, ctx.linkKey, {
      algorithms: ['HS256'],
      issuer,
      audience,
      currentDate: now,
      requiredClaims: ['jti', 'sub', 'exp'],
    });
    claims = verified.payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new LinkRefusedError('link_expired', 'The result link expired');
    throw new LinkRefusedError('link_tampered', 'The result link is not valid (bad signature or altered)');
  }
  const row = await ctx.db.selectFrom('result_links').selectAll().where('id', '=', String(claims.jti)).executeTakeFirst();
  if (!row) throw new LinkRefusedError('link_unknown', 'Unknown result link');
  if (row.uuid_user !== claims.sub || row.uuid_trx !== claims.trx || row.grantor_id !== claims.oto || row.document !== claims.doc) {
    throw new LinkRefusedError('link_mismatch', 'The result link does not match its record');
  }
  if (Date.parse(row.expires_at) <= now.getTime()) throw new LinkRefusedError('link_expired', 'The result link expired');
  if (row.state === 'consumed') throw new LinkRefusedError('link_consumed', 'The document of this link was already consulted');
  if (row.state !== 'verified') {
    throw new LinkRefusedError('link_not_verified', 'The result link needs the face re-verification before the download');
  }
  return { linkId: row.id, uuidTrx: row.uuid_trx, uuidUser: row.uuid_user, grantorId: row.grantor_id, document: row.document as ResultDocument };
}

/** The one consultation: true for exactly one caller, even when several nodes race on the same link. */
export async function consumeLink(db: Db, linkId: string, now: Date = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('result_links')
    .set({ state: 'consumed', consumed_at: now.toISOString() })
    .where('id', '=', linkId)
    .where('state', '=', 'verified')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return (result.numUpdatedRows ?? 0n) > 0n;
}
