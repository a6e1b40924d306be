import { errorTexts, type GrantorParam } from '@kyc/contracts';
import { effectiveParams } from '../../domain/grantor-params.js';
import { checkOpen } from '../../attempts/service.js';
import { decideVideoToken, type VideoTokenDeps, type VideoTokenRequest } from '../face-video/index.js';
import { findGrantorById, readStoredParams, type Grantor } from '../../store/grantors.js';
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

/** Refusal of the link flow: status, message and the Spanish text for the user. */
export class LinkFlowError extends Error {
  override name = 'LinkFlowError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly messageClient?: string,
  ) {
    super(message);
  }
}

function refusal(error: LinkRefusedError): LinkFlowError {
  // The web shows the expired-link page for 410; the other refusals are a bad URL.
  return new LinkFlowError(error.statusCode, error.message, error.statusCode === 410 ? undefined : errorTexts.badUrl);
}

/**
 * The live link of the credential (for `uuidUser` when given; a request whose user is read later checks it with
 * assertLinkUser), its active grantor, the transaction's lock and the link flow's video attempts (429).
 */
export async function authorizeLink(links: LinkContext, credential: string | undefined, uuidUser?: string, now: Date = new Date()): Promise<LinkAuth> {
  if (!credential) throw new LinkFlowError(401, 'The link credential (X-Consumer-Custom-ID) is required', errorTexts.badUrl);
  let link: OpenLink;
  try {
    link = await checkLinkCredential(links, credential, uuidUser, now);
  } catch (error) {
    if (error instanceof LinkRefusedError) throw refusal(error);
    throw error;
  }
  const grantor = await findGrantorById(links.db, link.grantorId);
  if (!grantor?.active) throw new LinkFlowError(403, 'The grantor of this link is not active', errorTexts.badUrl);
  // After the fifth failed face video the link stays dead, also once the hour's lock has passed (no code, no video).
  const open = await checkOpen(links.db, link.uuidTrx, now, linkVideoAttempts);
  if (open === 'unknown') throw new LinkFlowError(404, 'The transaction of this link is unknown');
  if (open === 'locked') throw new LinkFlowError(429, 'Attempts exhausted: the transaction is locked', errorTexts.attemptsExceeded);
  if (open === 'exhausted') {
    throw new LinkFlowError(429, `Attempts exhausted: the link's face re-verification failed ${linkVideoAttempts.limit} times`, errorTexts.attemptsExceeded);
  }
  return { link, grantor, params: effectiveParams(grantor, await readStoredParams(links.db, grantor.id)) };
}

/** 403 when the request names another user than the link's. */
export function assertLinkUser(auth: LinkAuth, uuidUser: string): void {
  if (uuidUser.trim().toLowerCase() !== auth.link.uuidUser) throw new LinkFlowError(403, 'The result link belongs to another user', errorTexts.badUrl);
}

export type LinkVideoRequest = Pick<VideoTokenRequest, 'video' | 'contentType' | 'created' | 'expire' | 'originOS' | 'now' | 'cameraInfo' | 'source'> & {
  serviceCall?: string;
};

export type LinkVideoResult =
  | { ok: true; status: 200; payload: { match: true; liveness: true; documentLink: string }; evidenceId: string }
  | { ok: false; status: number; message: string; message_client?: string };

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
  if (!result.ok) {
    const { status, message, message_client } = result;
    return { ok: false, status, message, ...(message_client ? { message_client } : {}) };
  }
  try {
    const verified = await verifyResultLink(links, { uuidUser: link.uuidUser, uuidTrx: link.uuidTrx, linkId: link.linkId }, request.now);
    return { ok: true, status: 200, payload: { ...result.payload, documentLink: verified.documentLink }, evidenceId: result.evidenceId };
  } catch (error) {
    // Consumed or expired while the video was decided.
    if (error instanceof LinkRefusedError) return { ok: false, status: error.statusCode, message: error.message };
    throw error;
  }
}
