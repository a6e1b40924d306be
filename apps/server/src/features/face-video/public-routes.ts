import { issueStoredCode } from './issue-stored.js';
import { uploadedVideo } from './uploaded-video.js';
import { calls, errorTexts, faceMessages } from '@kyc/contracts';
import { assertLinkUser, authorizeLink, decideLinkVideo, type LinkAuth } from '../results/link-video.js';
import { reasonStatus } from '../../http/reasons.js';
import { RefusedError } from '../../domain/refusal.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../http/multipart-plugin.js';
import { readUpload } from '../../uploads/read-multipart.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { resultLinkContext } from '../results/routes.js';
import { checkCodePhoto } from './routes.js';

const credentialHeader = 'x-consumer-custom-id';

/**
 * The face re-verification of the result-link flow: `POST /v1/public_otp` (the code) and
 * `POST /v1/public_video_token` (the video), both authorised by the link credential in X-Consumer-Custom-ID
 * instead of the api key and transaction headers.
 */
export function registerPublicVideoTokenRoutes(app: ZodApp, deps: Deps): void {
  const { config, db, cipher, blobs, face, speech } = deps;
  const limits = uploadLimits(config);
  const links = resultLinkContext(deps);

  // The credential is checked before the upload is read; the user named in the form after (both refuse with a link reason).
  const authorize = (credential: string | undefined): Promise<LinkAuth> => authorizeLink(links, credential);
  const sameUser = assertLinkUser;

  const otp = calls.publicOtp;
  app.route({
    method: otp.method,
    url: otp.path,
    schema: multipartRouteSchema(otp, 'face-video'),
    handler: async (request, reply) => {
      const auth = await authorize(request.headers[credentialHeader]);
      const { fields, file } = await readUpload(request, otp.multipart, { limits, retryMessage: faceMessages.noFace });
      sameUser(auth, fields.uuid ?? '');
      const { link } = auth;
      await checkCodePhoto(face, file);
      const codes = await issueStoredCode(deps, { grantorId: link.grantorId, uuidTrx: link.uuidTrx, origin: 'otp' });
      request.log.info({ grantorId: link.grantorId, uuidTrx: link.uuidTrx, linkId: link.linkId }, 'link-flow video-token code issued');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { codes } };
    },
  });

  const video = calls.publicVideoToken;
  app.route({
    method: video.method,
    url: video.path,
    schema: multipartRouteSchema(video, 'face-video'),
    handler: async (request, reply) => {
      const auth = await authorize(request.headers[credentialHeader]);
      const { fields, file } = await readUpload(request, video.multipart, { limits, retryMessage: errorTexts.watchdog });
      sameUser(auth, fields.uuidUser ?? '');
      const result = await decideLinkVideo({ db, cipher, blobs, face, speech }, links, auth, {
        ...uploadedVideo(fields, file),
        serviceCall: fields.service_call ?? '',
      });
      request.log.info(
        { grantorId: auth.link.grantorId, uuidTrx: auth.link.uuidTrx, linkId: auth.link.linkId, status: result.ok ? 200 : reasonStatus(result.refusal.reason) },
        'link-flow face video decided',
      );
      if (!result.ok) throw RefusedError.of(result.refusal);
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: result.payload };
    },
  });
}
