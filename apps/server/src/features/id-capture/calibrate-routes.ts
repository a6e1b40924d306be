import { randomBytes } from 'node:crypto';
import { calls, errorTexts, grantorParamDefaults, paramValue, type GrantorParam } from '@kyc/contracts';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { FfmpegUnavailableError, sampleFrames, VideoDecodeError } from '../../engines/hologram/decode.js';
import { measureHighlights } from '../../engines/hologram/measure.js';
import { addEvidence } from '../../store/evidence.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../http/multipart-plugin.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { extensionOf } from '../../uploads/sniff.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import type { FastifyBaseLogger } from 'fastify';
import type { UploadedFile } from '../../uploads/read-multipart.js';

/** Decoding is one ffmpeg process per video; more than this many at once would starve the 2-core reference machine. */
export const maxConcurrentCalibrations = 2;

function hologramThreshold(params: readonly GrantorParam[]): number {
  const value = Number.parseFloat(paramValue(params, 'UMBRAL_HOLOGRAMA'));
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : Number(grantorParamDefaults.UMBRAL_HOLOGRAMA);
}

/** The hologram measure of a video, at most maxConcurrentCalibrations at once (503 beyond). */
function boundedMeasure() {
  let inFlight = 0;
  return async (buffer: Buffer, threshold: number, log: FastifyBaseLogger) => {
    if (inFlight >= maxConcurrentCalibrations) throw new HttpError(503, 'Busy: too many calibration videos are being read; try again', errorTexts.serviceUnavailable);
    inFlight += 1;
    try {
      const started = performance.now();
      const video = await sampleFrames(buffer);
      return { ...measureHighlights(video, threshold), ms: Math.round(performance.now() - started), sampledSize: [video.width, video.height] };
    } catch (error) {
      if (error instanceof VideoDecodeError) throw new HttpError(400, `Invalid video: ${error.message}`);
      if (error instanceof FfmpegUnavailableError) {
        log.error({ err: error }, 'hologram calibration unavailable: install ffmpeg or set FFMPEG_PATH');
        throw new HttpError(503, 'Hologram analysis unavailable: ffmpeg is not installed', errorTexts.serviceUnavailable);
      }
      throw error;
    } finally {
      inFlight -= 1;
    }
  };
}

/** The calibration video and its measure kept as the transaction's hologram evidence. */
async function storeCalibration(
  { db, cipher, blobs }: Pick<Deps, 'db' | 'cipher' | 'blobs'>,
  trx: { grantorId: string; uuidTrx: string; uuidUser: string },
  file: UploadedFile,
  payload: Record<string, unknown>,
): Promise<void> {
  const now = new Date();
  const key = `${trx.grantorId}/${trx.uuidUser}/holograma/${trx.uuidTrx}-${compactTimestamp(now)}-${randomBytes(4).toString('hex')}.${extensionOf(file.sniffedType)}`;
  const stored = await blobs.put(key, file.buffer, { contentType: file.sniffedType });
  await addEvidence(db, cipher, { uuidTrx: trx.uuidTrx, grantorId: trx.grantorId, kind: evidenceKind.hologram, blobKey: stored.key, sha256: stored.sha256, payload }, now);
}

/**
 * `POST /v1/id_calibrate` (calls.idCalibrate, docs/flow.md §7 and §4 "Hologram"): the /holograma recording of the ID
 * while the user tilts it. The video is sniffed (WebM or MP4), decoded by ffmpeg in a child process, the card
 * tracked and the change of its specular highlights measured; the video is kept encrypted and the measure is
 * stored as the `holograma` evidence and returned.
 */
export function registerIdCalibrateRoutes(app: ZodApp, { config, db, cipher, blobs, caches }: Deps): void {
  const deps = { db, cipher, caches };
  const call = calls.idCalibrate;
  const limits = uploadLimits(config);
  const measure = boundedMeasure();
  app.route({
    method: call.method,
    url: call.path,
    schema: multipartRouteSchema(call, 'identification'),
    handler: async (request, reply) => {
      const { grantor, transaction, params } = await authorizeInOrder(deps, request.headers, 'hologram');
      const { fields, file } = await readUpload(request, call.multipart, { limits });
      const originOS = fields.originOS?.trim().slice(0, 20);
      const measured = await measure(file.buffer, hologramThreshold(params), request.log);
      await storeCalibration({ db, cipher, blobs }, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser }, file, { ...measured, originOS });
      request.log.info(
        {
          grantorId: grantor.id,
          uuidTrx: transaction.uuidTrx,
          outcome: measured.outcome,
          highlightChange: measured.highlightChange,
          frames: measured.framesAnalysed,
          tracked: measured.framesTracked,
          ms: measured.ms,
        },
        'hologram calibration measured',
      );
      reply.header('cache-control', 'no-store');
      const { outcome, highlightChange, framesAnalysed, detail, framesTracked, meanHighlightShare, meanFrameChange, highlightTravel, threshold } = measured;
      return {
        status: 200 as const,
        payload: { outcome, highlightChange, framesAnalysed, detail, framesTracked, meanHighlightShare, meanFrameChange, highlightTravel, threshold },
      };
    },
  });
}
