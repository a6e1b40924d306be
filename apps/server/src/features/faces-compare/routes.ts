import { facesCompareBody, serverCalls, type FacesCompareResult } from '@kyc/contracts';
import { effectiveParams } from '../../domain/grantor-params.js';
import { faceThreshold } from '../face-video/index.js';
import { compareFaces, decodeProbeVideo, describeImage, describeVideo, FaceCompareError, imageToRgb, type DescribedFace, type Which } from './compare.js';
import { insertServerAuditEvent } from '../../secret-keys/store.js';
import { readStoredParams } from '../../store/grantors.js';
import { checkContent } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import type { ImageLimits } from '../../uploads/image-check.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartContentType } from '../../http/multipart-plugin.js';
import { RefusedError } from '../../domain/refusal.js';
import type { UploadedFile } from '../../uploads/read-multipart.js';
import { isImageType } from '../../uploads/sniff.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError, refusedHttpError } from '../../http/errors.js';
import { readFiles } from '../../http/multipart-files.js';
import { requireSecretKey, secretKeySecurityScheme, type ServerCaller } from '../../http/secret-auth.js';

const call = serverCalls.facesCompare;
const operation = 'faces.compare';

// A holder photo cropped from an ID may be small; the face detector still finds a face of ~64 px.
const compareImageLimits: ImageLimits = { minShortSide: 64, minLongSide: 64, maxSide: 8192, maxPixels: 40_000_000 };

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
const box = (face: DescribedFace['face']) => face.box.map((v) => Math.round(v)) as [number, number, number, number];

async function checkImageFile(file: UploadedFile, which: Which): Promise<void> {
  try {
    await checkContent(file, compareImageLimits);
  } catch (error) {
    if (!(error instanceof ContentRejectedError)) throw error;
    const reason = error.reason === 'too_large' ? 'payload_too_large' : error.reason === 'too_small' ? 'compare_image_too_small' : 'invalid_request';
    throw new FaceCompareError(reason, `The ${which} file (field ${which}) cannot be used: ${error.message}`, which);
  }
}

/** The HTTP refusal of an error the comparison answers (and audits), undefined for a server failure. */
function refusalOf(error: unknown): HttpError | undefined {
  // FaceCompareError is a RefusedError: its status and texts come from the reasons table.
  if (error instanceof RefusedError) return refusedHttpError(error);
  return error instanceof HttpError ? error : undefined;
}

type Compared = { ref: DescribedFace; probes: DescribedFace[]; frames: { sampled: number; tracked: number; withFace: number; described: number } | undefined };

/** Both faces described in one engine slot: a probe image at once with the reference, a probe video while the reference is described. */
async function describeBoth(
  face: Deps['face'],
  reference: Awaited<ReturnType<typeof imageToRgb>>,
  probeImage: Awaited<ReturnType<typeof imageToRgb>> | undefined,
  probeVideo: Buffer,
): Promise<Compared | undefined> {
  return face.withSlot(async (engine) => {
    const referenceFace = describeImage(engine, reference, 'reference');
    if (probeImage) {
      // Both described at once; when both fail, the reference's problem is the one reported.
      const [ref, probe] = await Promise.allSettled([referenceFace, describeImage(engine, probeImage, 'probe')]);
      if (ref.status === 'rejected') throw ref.reason;
      if (probe.status === 'rejected') throw probe.reason;
      return { ref: ref.value, probes: [probe.value], frames: undefined };
    }
    // The reference is described while the video decodes; a reference without a face is reported first.
    referenceFace.catch(() => undefined);
    const media = await decodeProbeVideo(probeVideo).catch(async (error: unknown) => {
      await referenceFace;
      throw error;
    });
    const ref = await referenceFace;
    const video = await describeVideo(engine, media);
    return { ref, probes: video.faces, frames: { sampled: video.sampled, tracked: video.tracked, withFace: video.withFace, described: video.faces.length } };
  });
}

/** The two uploaded files checked, described and compared against the threshold: the answer's payload. */
async function compareUploads(face: Deps['face'], files: { reference: UploadedFile; probe: UploadedFile }, threshold: number): Promise<FacesCompareResult['payload']> {
  const probeIsImage = isImageType(files.probe.sniffedType);
  await checkImageFile(files.reference, 'reference');
  if (probeIsImage) await checkImageFile(files.probe, 'probe');
  const reference = await imageToRgb(files.reference.buffer, 'reference');
  const probeImage = probeIsImage ? await imageToRgb(files.probe.buffer, 'probe') : undefined;
  const compared = await describeBoth(face, reference, probeImage, files.probe.buffer);
  if (!compared) throw new HttpError(503, 'Busy: too many faces are being compared; try again');

  const { similarity: exact, probe } = compareFaces(compared.ref, compared.probes);
  // Decided on the figure answered (thresholds have at most 4 decimals), so the answer is consistent on its face.
  const similarity = round(exact);
  return {
    match: similarity >= threshold,
    similarity,
    threshold,
    reference: { kind: 'image', width: compared.ref.width, height: compared.ref.height, face: { box: box(compared.ref.face), score: round(compared.ref.face.score, 3) } },
    probe: {
      kind: probeIsImage ? 'image' : 'video',
      width: probe.width,
      height: probe.height,
      face: { box: box(probe.face), score: round(probe.face.score, 3), ...(probe.frameTimeMs !== undefined ? { frameTimeMs: probe.frameTimeMs } : {}) },
      ...(compared.frames ? { frames: compared.frames } : {}),
    },
  };
}

/**
 * `POST /v1/faces/compare`: two files in (a reference image, a probe image or short video), both faces, their
 * similarity, the grantor's UMBRAL_ROSTRO and the decision out. Authorised by a secret server key. Only an audit
 * row with ids and the outcome is kept (server_audit_events); the files and descriptors are dropped.
 */
export function registerFacesCompareRoutes(app: ZodApp, deps: Deps): void {
  const { config, db, face } = deps;
  const limits = uploadLimits(config);

  async function audit(caller: ServerCaller, requestId: string, status: number, outcome: 'match' | 'no_match' | 'refused', detail: Record<string, unknown>) {
    await insertServerAuditEvent(db, { grantorId: caller.grantor.id, secretKeyId: caller.key.id, operation, status, outcome, requestId, detail });
  }

  app.route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      description:
        "Authorised by the grantor's secret server key (`Authorization: Bearer …`, created with `kyc-grantor secret-create`); " +
        "the publishable api key of the flow's URL is refused. Answers 422 when a file shows no face or several faces of similar " +
        'size (the message names the field), 415 for a file of another type, 400 for an unreadable or missing file, 413 for a ' +
        'file over the size limit, 503 when the face engine is busy. Nothing is stored but an audit row with ids and the outcome.',
      tags: ['faces'],
      consumes: [multipartContentType],
      body: facesCompareBody(limits.fileBytes),
      security: [{ [secretKeySecurityScheme]: [] }],
      response: { 200: call.response, ...errorResponses },
    },
    // The body schema documents the multipart files for /openapi.json; the files themselves are read and checked by readFiles.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const caller = await requireSecretKey(deps, request, reply, { demoGrantor: config.demoGrantor });
      try {
        const files = await readFiles(request, call.multipart, limits);
        const threshold = faceThreshold(effectiveParams(caller.grantor, await readStoredParams(deps, caller.grantor.id)));
        const payload = await compareUploads(face, files, threshold);
        await audit(caller, request.id, 200, payload.match ? 'match' : 'no_match', { similarity: payload.similarity, threshold, probe: payload.probe.kind, frames: payload.probe.frames ?? null });
        request.log.info({ grantorId: caller.grantor.id, secretKeyId: caller.key.id, match: payload.match, similarity: payload.similarity, threshold, probe: payload.probe.kind }, 'faces compared');
        reply.header('cache-control', 'no-store');
        return { status: 200 as const, payload };
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        await audit(caller, request.id, refusal.statusCode, 'refused', { reason: refusal.message }).catch((failure: unknown) =>
          request.log.error({ err: failure }, 'the audit row of a refused comparison could not be written'),
        );
        throw refusal;
      }
    },
  });
}
