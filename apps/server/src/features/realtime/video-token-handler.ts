import type { Deps } from '../../deps.js';
import { errorTexts } from '@kyc/contracts';
import { ownerParams } from '../../domain/grantor-params.js';
import { decideVideoToken, type VideoTokenDeps } from '../face-video/index.js';
import { decideLinkVideo, linkServiceCall } from '../results/link-video.js';
import type { LinkContext } from '../results/links.js';
import { readStoredParams } from '../../store/grantors.js';
import { refusal, type Refusal } from '../../domain/refusal.js';
import { refusalBody } from '../../http/reasons.js';
import type { RecordingHandler, RecordingHandlers } from './handlers.js';
import { errorReply } from './protocol.js';

/** A refusal as the channel's reply: the status and texts of the HTTP reasons table. */
function refusalReply(refused: Refusal) {
  const body = refusalBody(refused);
  return errorReply(body.status, body.message, body.message_client);
}

const isTrue = (flag: boolean | string | undefined) => flag === true || flag === 'true';

/**
 * The face-video decision (domain/video-token, the same as `POST /v2/videotoken`) for recordings of the real-time
 * path: attempts, lock, the one-time code named by created/expire, face match, liveness and spoken code.
 */
export function videoTokenRecordingHandlers(deps: VideoTokenDeps & Pick<Deps, 'caches'>, links: LinkContext): Pick<RecordingHandlers, 'VIDEO_TOKEN' | 'VIDEO_TOKEN_PDF'> {
  const handler: RecordingHandler = async (recording, { grantor, transaction }) => {
    const { message } = recording;
    if (!message.created || !message.expire) return refusalReply(missingCode);
    const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), message.key);
    const result = await decideVideoToken(deps, {
      grantorId: grantor.id,
      uuidTrx: transaction.uuidTrx,
      uuidUser: transaction.uuidUser,
      params,
      video: { path: recording.path },
      contentType: recording.mimeType,
      created: message.created,
      expire: message.expire,
      serviceCall: message.service ?? 'videotoken-embedding',
      originOS: isTrue(message.ios) ? 'ios' : 'android',
      source: 'realtime',
      ...(message.info_camara ? { cameraInfo: message.info_camara } : {}),
    });
    return result.ok ? { status: 200, res: { status: 200, payload: result.payload } } : refusalReply(result.refusal);
  };
  // The result-link flow (authorised by the link credential, see routes.ts): the same decision with the link's
  // attempts; a match verifies the link and answers its one-time download (payload.documentLink).
  const linkHandler: RecordingHandler = async (recording, { link }) => {
    const { message } = recording;
    if (!link) return refusalReply(refusal('link_credential_missing', 'VIDEO_TOKEN_PDF needs the result link credential in key', errorTexts.badUrl));
    if (!message.created || !message.expire) return refusalReply(missingCode);
    const result = await decideLinkVideo(deps, links, link, {
      video: { path: recording.path },
      contentType: recording.mimeType,
      created: message.created,
      expire: message.expire,
      serviceCall: message.service ?? linkServiceCall,
      originOS: isTrue(message.ios) ? 'ios' : 'android',
      source: 'realtime',
      ...(message.info_camara ? { cameraInfo: message.info_camara } : {}),
    });
    return result.ok ? { status: 200, res: { status: 200, payload: result.payload } } : refusalReply(result.refusal);
  };
  return { VIDEO_TOKEN: handler, VIDEO_TOKEN_PDF: linkHandler };
}

const missingCode = refusal('invalid_request', 'Invalid message: created and expire of the video-token code are required', errorTexts.watchdog);
