import { errorTexts, type GrantorParam } from '@kyc/contracts';
import { effectiveParams } from '../../domain/grantor-params.js';
import { checkOpen } from '../../attempts/service.js';
import { decideVideoToken, type VideoTokenDeps, type VideoTokenRequest } from '../face-video/index.js';
import { findGrantorById, readStoredParams, type Grantor } from '../../store/grantors.js';
import { refusal, RefusedError, type Refusal } from '../../domain/refusal.js';
import { checkLinkCredential, LinkRefusedError, verifyResultLink, type LinkContext, type OpenLink } from './links.js';

/**
 * The face re-verification of the result-link flow (docs/flow.md §2, §7 public_video_token, real-time VIDEO_TOKEN_PDF):
 * the link credential of the /pdf_token URL replaces the api key; the video is decided as in the main flow
 * (decideVideoToken, against the same holder photo) with the link flow's own attempts, and a match moves the link
 * to verified and returns its one-time download.
 */

/**
 * Spec §9: "In the link/provider variant video attempts: 3 for the error modal and 5 for the final screen": 5 in
 * all for the transaction (the modal's 3 is the web's: from the third failure it restarts the link, see
 * docs/decisions.md).
 */
export const linkVideoAttempts = { step: 'video_token_pdf', limit: 5 } as const;
export const linkServiceCall = 'videotoken-pdf';

export interface LinkAuth {
  link: OpenLink;
  grantor: Grantor;
  /** The grantor's parameters without the api key (the link flow never has it). */
  params: GrantorParam[];
}

function linkFlowRefusal(error: LinkRefusedError): RefusedError {
  // The web shows the expired-link page for an expired or consulted link; the other refusals are a bad URL.
  const gone = error.reason === 'link_expired' || error.reason === 'link_consumed';
  return new RefusedError(error.reason, error.message, gone ? undefined : errorTexts.badUrl);
}

/**
 * Refuses (RefusedError) with the link's reason.
 * The live link of the credential (for `uuidUser` when given; a request whose user is read later checks it with
 * assertLinkUser), its active grantor, the transaction's lock and the link flow's video attempts (429).
 */
export async function authorizeLink(links: LinkContext, credential: string | undefined, uuidUser?: string, now: Date = new Date()): Promise<LinkAuth> {
  if (!credential) throw new RefusedError('link_credential_missing', 'The link credential (X-Consumer-Custom-ID) is required', errorTexts.badUrl);
  let link: OpenLink;
  try {
    link = await checkLinkCredential(links, credential, uuidUser, now);
  } catch (error) {
    if (error instanceof LinkRefusedError) throw linkFlowRefusal(error);
    throw error;
  }
  const grantor = await findGrantorById(links.db, link.grantorId);
  if (!grantor?.active) throw new RefusedError('link_grantor_inactive', 'The grantor of this link is not active', errorTexts.badUrl);
  // After the fifth failed face video the link stays dead, also once the hour's lock has passed (no code, no video).
  const open = await checkOpen(links.db, link.uuidTrx, now, linkVideoAttempts);
  if (open === 'unknown') throw new RefusedError('transaction_unknown', 'The transaction of this link is unknown');
  if (open === 'locked') throw new RefusedError('transaction_locked', 'Attempts exhausted: the transaction is locked');
  if (open === 'exhausted') {
    throw new RefusedError('attempts_exhausted', `Attempts exhausted: the link's face re-verification failed ${linkVideoAttempts.limit} times`);
  }
  return { link, grantor, params: effectiveParams(grantor, await readStoredParams(links, grantor.id)) };
}

/** Refused (link_other_user) when the request names another user than the link's. */
export function assertLinkUser(auth: LinkAuth, uuidUser: string): void {
  if (uuidUser.trim().toLowerCase() !== auth.link.uuidUser) throw new RefusedError('link_other_user', 'The result link belongs to another user', errorTexts.badUrl);
}

export type LinkVideoRequest = Pick<VideoTokenRequest, 'video' | 'contentType' | 'created' | 'expire' | 'originOS' | 'now' | 'cameraInfo' | 'source'> & {
  serviceCall?: string;
};

export type LinkVideoResult = { ok: true; payload: { match: true; liveness: true; documentLink: string }; evidenceId: string } | { ok: false; refusal: Refusal };

/** One face video of the link flow: decided, then, on a match, the link verified and its download returned. */
export async function decideLinkVideo(deps: VideoTokenDeps, links: LinkContext, auth: LinkAuth, request: LinkVideoRequest): Promise<LinkVideoResult> {
  const { link } = auth;
  const result = await decideVideoToken(deps, {
    grantorId: link.grantorId,
    uuidTrx: link.uuidTrx,
    uuidUser: link.uuidUser,
    params: auth.params,
    video: request.video,
    contentType: request.contentType,
    created: request.created,
    expire: request.expire,
    serviceCall: request.serviceCall || linkServiceCall,
    attempts: linkVideoAttempts,
    ...(request.originOS ? { originOS: request.originOS } : {}),
    ...(request.cameraInfo ? { cameraInfo: request.cameraInfo } : {}),
    ...(request.source ? { source: request.source } : {}),
    ...(request.now ? { now: request.now } : {}),
  });
  if (!result.ok) return { ok: false, refusal: result.refusal };
  try {
    const verified = await verifyResultLink(links, { uuidUser: link.uuidUser, uuidTrx: link.uuidTrx, linkId: link.linkId }, request.now);
    return { ok: true, payload: { ...result.payload, documentLink: verified.documentLink }, evidenceId: result.evidenceId };
  } catch (error) {
    // Consumed or expired while the video was decided.
    if (error instanceof LinkRefusedError) return { ok: false, refusal: refusal(error.reason, error.message) };
    throw error;
  }
}
