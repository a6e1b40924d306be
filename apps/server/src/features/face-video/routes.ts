import { issueStoredCode } from './issue-stored.js';
import { uploadedVideo } from './uploaded-video.js';
import { calls, errorTexts, faceMessages } from '@kyc/contracts';
import sharp from 'sharp';
import { ownerParams } from '../../domain/grantor-params.js';
import { checkOpen } from '../../attempts/service.js';
import { normalizeId } from '../../domain/transactions.js';
import { frameCovered, measureCover } from './face-cover.js';
import { decideVideoToken, type VideoTokenResult } from './index.js';
import type { FastifyBaseLogger } from 'fastify';
import { readStoredParams } from '../../store/grantors.js';
import { checkContent } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../http/multipart-plugin.js';
import { reasonStatus } from '../../http/reasons.js';
import { RefusedError } from '../../domain/refusal.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';

const faceProblem = { status: 400 } as const;

/**
 * The photo of a code request (/v1/otp, /v1/public_otp): an image with exactly one face, its lower face not
 * covered (a mask, a hand), else 400 with the face text.
 */
export async function checkCodePhoto(face: Deps['face'], file: Parameters<typeof checkContent>[0]): Promise<void> {
  try {
    await checkContent(file);
  } catch (error) {
    if (error instanceof ContentRejectedError) throw new HttpError(400, error.message, faceMessages.noFace);
    throw error;
  }
  const { data, info } = await sharp(file.buffer).rotate().removeAlpha().resize({ width: 640, height: 640, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  const analysis = await face.withSlot((engine) => engine.analyse({ data, width: info.width, height: info.height }, 'track'));
  if (!analysis) throw new HttpError(503, 'Busy: too many faces are being checked; try again', errorTexts.serviceUnavailable);
  if (analysis.faces.length === 0) throw new HttpError(faceProblem.status, faceMessages.noFace, faceMessages.noFace);
  if (analysis.faces.length > 1) throw new HttpError(faceProblem.status, faceMessages.multipleFaces, faceMessages.multipleFaces);
  const cover = measureCover({ data, width: info.width, height: info.height }, analysis.faces[0]!);
  if (cover && frameCovered(cover)) throw new HttpError(faceProblem.status, faceMessages.mask, faceMessages.mask);
}

/** The log line of a face-video decision (the status it is answered with, the decision's figures). */
function logDecision(log: FastifyBaseLogger, transaction: { grantorId: string; uuidTrx: string }, result: VideoTokenResult): void {
  const { decision } = result;
  log.info(
    {
      grantorId: transaction.grantorId,
      uuidTrx: transaction.uuidTrx,
      status: result.ok ? 200 : reasonStatus(result.refusal.reason),
      match: decision?.match,
      faceScore: decision?.faceScore,
      liveness: decision?.liveness.passed,
      livenessVerdict: decision?.liveness.signals.verdict,
      spoof: decision?.liveness.spoof,
      camera: decision?.camera?.label,
      virtualCamera: decision?.camera?.virtualCamera,
      recorder: decision?.recorder?.origin,
    },
    'face video decided',
  );
}

/**
 * The face video token (docs/flow.md §2, §7): `POST /v1/otp` (a face photo in, a one-time code out),
 * `POST /v1/videotoken/code` (a code without a photo) and `POST /v2/videotoken` (the video reading the code:
 * face match, liveness, spoken code; decided by domain/video-token).
 */
export function registerVideoTokenRoutes(app: ZodApp, deps: Deps): void {
  const { config, db, cipher, blobs, face, speech } = deps;
  const limits = uploadLimits(config);

  async function lockedCheck(uuidTrx: string) {
    if ((await checkOpen(db, uuidTrx, new Date())) === 'locked') throw new HttpError(429, 'Attempts exhausted: the transaction is locked', errorTexts.attemptsExceeded);
  }

  app.route({
    method: calls.otp.method,
    url: calls.otp.path,
    schema: multipartRouteSchema(calls.otp, 'face-video'),
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'faceVideo');
      await lockedCheck(transaction.uuidTrx);
      const { fields, file } = await readUpload(request, calls.otp.multipart, { limits, retryMessage: faceMessages.noFace });
      if (normalizeId(fields.uuid ?? '') !== transaction.uuidUser) throw new HttpError(400, 'Invalid request: multipart field uuid must equal the cliente header');
      await checkCodePhoto(face, file);
      const codes = await issueStoredCode(deps, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, origin: 'otp' });
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx }, 'video-token code issued');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { codes } };
    },
  });

  app.route({
    method: calls.videoTokenCode.method,
    url: calls.videoTokenCode.path,
    schema: {
      summary: calls.videoTokenCode.summary,
      tags: ['face-video'],
      headers: calls.videoTokenCode.headers,
      body: calls.videoTokenCode.body,
      response: { 200: calls.videoTokenCode.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'faceVideo');
      if (normalizeId(request.body.uuid) !== transaction.uuidUser) throw new HttpError(400, 'Invalid request: body field uuid must equal the cliente header');
      await lockedCheck(transaction.uuidTrx);
      const issued = await issueStoredCode(deps, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, origin: 'code' });
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: issued };
    },
  });

  app.route({
    method: calls.videoToken.method,
    url: calls.videoToken.path,
    schema: multipartRouteSchema(calls.videoToken, 'face-video'),
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'faceVideo');
      await lockedCheck(transaction.uuidTrx);
      const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), request.headers.apikey);
      const { fields, file } = await readUpload(request, calls.videoToken.multipart, { limits, retryMessage: errorTexts.watchdog });
      if (normalizeId(fields.uuidUser ?? '') !== transaction.uuidUser) {
        throw new HttpError(400, 'Invalid request: multipart field uuidUser must equal the cliente header');
      }
      const result = await decideVideoToken(
        { db, cipher, blobs, face, speech },
        {
          grantorId: grantor.id,
          uuidTrx: transaction.uuidTrx,
          uuidUser: transaction.uuidUser,
          params,
          ...uploadedVideo(fields, file),
          serviceCall: fields.service_call ?? '',
        },
      );
      logDecision(request.log, transaction, result);
      if (!result.ok) throw RefusedError.of(result.refusal);
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: result.payload };
    },
  });
}
