import { issueStoredCode } from '../face-video/issue-stored.js';
import { uploadedVideo } from '../face-video/uploaded-video.js';
import { errorTexts, faceMessages, paramInt, type GrantorParam, redoFaceCode, redoFaceVideo, redoMultipart, redoPaths } from '@kyc/contracts';
import type { FastifyRequest } from 'fastify';
import { checkOpen } from '../../attempts/service.js';
import { attemptSteps } from '../../domain/attempts.js';
import { RefusedError } from '../../domain/refusal.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { uploadLimits } from '../../uploads/limits.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { decideVideoToken } from '../face-video/index.js';
import { checkCodePhoto } from '../face-video/routes.js';
import type { OpenRedo } from './links.js';
import { assertRedoStep, redoAttemptStep } from './steps.js';

const multipart = { hide: true, consumes: ['multipart/form-data'] } as const;

/** Kept with the decision, like the main flow's `videotoken-embedding`: the video came through a redo link. */
export const redoServiceCall = 'videotoken-redo';

/** The redo's own face-video counter (the journey's may be used up) with the grantor's INTENTOS_VIDEO_TOKEN. */
function faceCounter(redo: OpenRedo, params: readonly GrantorParam[]) {
  return { step: redoAttemptStep(redo, attemptSteps.videoToken.step), limit: paramInt(params, attemptSteps.videoToken.limitParam) };
}

type OpenedRedo = { redo: OpenRedo; params: readonly GrantorParam[] };

/**
 * The face video through a redo link (docs/decisions.md "Redoing the face video"): a code for a face photo, then the
 * video reading it, decided exactly as the journey's (decideVideoToken: code, schedule, liveness, face match against
 * the holder photo the case kept) on attempts of the redo's own. `finish` (routes.ts) then needs a match since the ask.
 */
export function registerRedoFaceRoutes(app: ZodApp, deps: Deps, openRedo: (request: FastifyRequest) => Promise<OpenedRedo>): void {
  const { config, db, cipher, blobs, face, speech } = deps;
  const limits = uploadLimits(config);

  /** The link is for the face and its attempts are not used up (the transaction's lock included). */
  async function openFaceRedo(request: FastifyRequest): Promise<OpenedRedo> {
    const opened = await openRedo(request);
    assertRedoStep(opened.redo, 'face');
    const open = await checkOpen(db, opened.redo.uuidTrx, new Date(), faceCounter(opened.redo, opened.params));
    if (open === 'locked' || open === 'exhausted') throw new HttpError(429, 'Attempts exhausted for this redo', errorTexts.attemptsExceeded);
    return opened;
  }

  app.post(redoPaths.faceCode, { schema: { ...multipart, response: { 200: redoFaceCode, ...errorResponses } } }, async (request, reply) => {
    const { redo } = await openFaceRedo(request);
    const { file } = await readUpload(request, redoMultipart.faceCode, { limits, retryMessage: faceMessages.noFace });
    await checkCodePhoto(face, file);
    const codes = await issueStoredCode(deps, { grantorId: redo.grantorId, uuidTrx: redo.uuidTrx, origin: 'otp' });
    request.log.info({ grantorId: redo.grantorId, uuidTrx: redo.uuidTrx, redoId: redo.redoId }, 'redo video-token code issued');
    reply.header('cache-control', 'no-store');
    return { status: 200, payload: { codes } };
  });

  app.post(redoPaths.faceVideo, { schema: { ...multipart, response: { 200: redoFaceVideo, ...errorResponses } } }, async (request, reply) => {
    const { redo, params } = await openFaceRedo(request);
    const { fields, file } = await readUpload(request, redoMultipart.faceVideo, { limits, retryMessage: errorTexts.watchdog });
    const result = await decideVideoToken(
      { db, cipher, blobs, face, speech },
      {
        grantorId: redo.grantorId,
        uuidTrx: redo.uuidTrx,
        uuidUser: redo.uuidUser,
        params,
        ...uploadedVideo(fields, file),
        serviceCall: redoServiceCall,
        attempts: faceCounter(redo, params),
      },
    );
    request.log.info({ grantorId: redo.grantorId, uuidTrx: redo.uuidTrx, redoId: redo.redoId, match: result.decision?.match, liveness: result.decision?.liveness.passed }, 'redo face video decided');
    if (!result.ok) throw RefusedError.of(result.refusal);
    reply.header('cache-control', 'no-store');
    return { status: 200, payload: { match: true as const, liveness: true as const } };
  });
}
