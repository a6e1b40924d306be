import { consoleInsightPaths, consoleVideoFrames } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind, type VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { DEFAULT_SAMPLE_FPS, decodeMedia, MediaError } from '../../engines/media/decode.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { listEvidence, listEvidenceWithPayload, type EvidenceSummary } from '../../store/evidence.js';
import { bundleEvidenceKind, storeBundle } from '../results/bundle.js';
import { findOutcome } from '../results/outcomes.js';
import type { ConsoleRouteHelpers } from './route-helpers.js';
import * as store from './store.js';

const caseParams = z.object({ uuidTrx: z.string().max(64) });
const grantorQuery = z.object({ grantorId: z.string().max(100).optional() });

/** Frames shown beside the holder photo: those the face decision compared with it, then others spread over the video. */
export const framesShown = 6;
const frameSide = 320;
/** Decodes at once per process: each is an ffmpeg child of a second or so; more wait for a retry (503). */
const maxDecodes = 2;
let decoding = 0;

const noVideo = () => new HttpError(404, 'No face video in this case', 'Este expediente no tiene video de rostro.');

/** The newest face-video decision that still has its video (retention may have deleted the blob). */
export function faceVideoRecord(records: readonly EvidenceSummary[]): EvidenceSummary | undefined {
  return records.filter((r) => r.kind === evidenceKind.videoToken && r.blobKey).at(-1);
}

/** A single `bytes=a-b` range of a body of `size` bytes; undefined: the whole body; null: unsatisfiable. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined | null {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // The last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return null;
  return { start, end };
}

/**
 * The frames to show, in time order: the one nearest each time the decision compared (`compared`), then evenly spaced
 * ones up to `count`. Without compared times (a decision stored before they were kept): evenly spaced only.
 */
export function pickFrames(timesMs: readonly number[], comparedMs: readonly number[], count: number): { index: number; compared: boolean }[] {
  const total = Math.min(count, timesMs.length);
  const picked = new Map<number, boolean>();
  for (const at of comparedMs) {
    const nearest = timesMs.reduce((best, t, i) => (Math.abs(t - at) < Math.abs(timesMs[best]! - at) ? i : best), 0);
    if (picked.size < total) picked.set(nearest, true);
  }
  const spread = Array.from({ length: total }, (_, i) => (total === 1 ? 0 : Math.round((i * (timesMs.length - 1)) / (total - 1))));
  for (const index of [...spread, ...timesMs.keys()]) {
    if (picked.size >= total) break;
    if (!picked.has(index)) picked.set(index, false);
  }
  return [...picked].sort((a, b) => a[0] - b[0]).map(([index, compared]) => ({ index, compared }));
}

/** JPEG frames of a video (pickFrames), at most `maxDecodes` decodes at once (503 past them; 422 undecodable). */
async function videoFrames(video: Buffer, comparedMs: readonly number[]): Promise<{ durationMs: number; frames: { timeMs: number; image: string; compared: boolean }[] }> {
  if (decoding >= maxDecodes) throw new HttpError(503, 'Busy decoding other videos; try again', 'Estamos procesando otros videos. Inténtalo en unos segundos.');
  decoding += 1;
  try {
    const media = await decodeMedia({ buffer: video }, { fps: DEFAULT_SAMPLE_FPS, maxSide: frameSide, maxDurationMs: 120_000, minDurationMs: 1 });
    const picks = pickFrames(
      media.frames.map((f) => f.timeMs),
      comparedMs,
      framesShown,
    );
    const frames = await Promise.all(
      picks.map(async ({ index, compared }) => {
        const f = media.frames[index]!;
        const raw = Buffer.from(f.image.data.buffer, f.image.data.byteOffset, f.image.data.byteLength);
        const jpeg = await sharp(raw, { raw: { width: f.image.width, height: f.image.height, channels: 3 } })
          .jpeg({ quality: 75 })
          .toBuffer();
        return { timeMs: f.timeMs, image: `data:image/jpeg;base64,${jpeg.toString('base64')}`, compared };
      }),
    );
    return { durationMs: media.durationMs, frames };
  } catch (error) {
    if (error instanceof MediaError) throw new HttpError(422, `The face video could not be decoded: ${error.message}`, 'No pudimos extraer cuadros de este video.');
    throw error;
  } finally {
    decoding -= 1;
  }
}

/** Roles that may download the whole file: it leaves the service with every document and evidence file in it. */
const bundleRoles: ReadonlySet<store.Role> = new Set(['admin', 'reviewer']);

/** The stored bundle when nothing was added since; otherwise a new one, time-stamped and kept as evidence. */
async function caseBundle(
  deps: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'config' | 'caches'>,
  request: FastifyRequest,
  trx: { uuidTrx: string; uuidUser: string; grantorId: string },
): Promise<{ key: string; sha256: string | null; reused: boolean }> {
  const records = await listEvidence(deps.db, trx.uuidTrx);
  const latest = records.filter((r) => r.kind === bundleEvidenceKind && r.blobKey).at(-1);
  const newer = latest ? records.some((r) => r.id > latest.id && r.kind !== evidenceKind.document && r.kind !== bundleEvidenceKind) : true;
  if (latest?.blobKey && !newer) return { key: latest.blobKey, sha256: latest.sha256, reused: true };
  const now = new Date();
  try {
    const stored = await storeBundle(deps, trx, { customId: `consola-${compactTimestamp(now)}`, body: { origen: 'consola', uuidTrx: trx.uuidTrx } }, now);
    return { key: stored.blobKey, sha256: stored.sha256, reused: false };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    request.log.error({ err: error, uuidTrx: trx.uuidTrx }, 'console evidence bundle failed');
    throw new HttpError(502, 'The evidence bundle could not be built or time-stamped', 'No pudimos preparar el expediente. Inténtalo de nuevo en unos minutos.');
  }
}

/**
 * The case file's media (issue #16): the face video streamed to the signed-in user, its frames for the holder-photo
 * comparison (those the decision compared, decoded at the decision's own rate so their times are frames, and others
 * spread over the video), and the evidence bundle as a download. Each is decrypted here for a user who may see the
 * case (visibleCase: another grantor's case 404, a blocked one 451), never cached (no-store), and audited.
 */
export function registerCaseMediaRoutes(app: ZodApp, deps: Pick<Deps, 'db' | 'cipher' | 'blobs' | 'config' | 'caches'>, helpers: ConsoleRouteHelpers): void {
  const { db, blobs } = deps;
  const { requireSession, touch, noStore, errors, visibleCase } = helpers;

  async function openCase(request: FastifyRequest, reply: FastifyReply, ids: { uuidTrx: string; grantorId?: string | undefined }) {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await touch(session);
    const visible = await visibleCase(request, user, ids.uuidTrx, ids.grantorId);
    return { user, ...visible };
  }

  async function faceVideo(uuidTrx: string) {
    const record = faceVideoRecord(await listEvidence(db, uuidTrx));
    if (!record?.blobKey) throw noVideo();
    const blob = await blobs.get(record.blobKey);
    if (!blob.contentType.startsWith('video/')) throw noVideo();
    return { record, blob };
  }

  /** When the decision stored with this video compared its frames with the ID photo (none for older decisions). */
  async function comparedTimes(uuidTrx: string, evidenceId: string): Promise<number[]> {
    const decision = (await listEvidenceWithPayload(db, deps.cipher, uuidTrx, evidenceKind.videoToken)).find((r) => r.id === evidenceId)?.payload as VideoTokenDecision | undefined;
    return (decision?.describedFramesMs ?? []).filter((t) => Number.isFinite(t));
  }

  app.get(consoleInsightPaths.caseVideo, { schema: { hide: true, params: caseParams, querystring: grantorQuery } }, async (request, reply) => {
    const { user, row, grantorId } = await openCase(request, reply, { ...request.params, ...request.query });
    const { record, blob } = await faceVideo(row.uuidTrx);
    const size = blob.buffer.length;
    const range = byteRange(request.headers.range, size);
    reply.header('accept-ranges', 'bytes').header('x-content-type-options', 'nosniff').header('content-disposition', 'inline');
    if (range === null) return reply.code(416).header('content-range', `bytes */${size}`).send();
    // A player asks for many ranges of one viewing: the one from the start is the view, audited once.
    if (!range || range.start === 0) {
      await store.audit(db, { action: 'case_video_viewed', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx, evidenceId: record.id } });
    }
    reply.header('content-type', blob.contentType);
    if (!range) return reply.send(blob.buffer);
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .send(blob.buffer.subarray(range.start, range.end + 1));
  });

  app.get(
    consoleInsightPaths.caseVideoFrames,
    { schema: { hide: true, params: caseParams, querystring: grantorQuery, response: { 200: consoleVideoFrames, ...errors, 503: errors[404]! } } },
    async (request, reply) => {
      const { user, row, grantorId } = await openCase(request, reply, { ...request.params, ...request.query });
      const { record, blob } = await faceVideo(row.uuidTrx);
      const frames = await videoFrames(blob.buffer, await comparedTimes(row.uuidTrx, record.id));
      await store.audit(db, {
        action: 'case_video_frames_viewed',
        userId: user.id,
        grantorId,
        ip: request.ip,
        detail: { uuidTrx: row.uuidTrx, evidenceId: record.id, frames: frames.frames.length, compared: frames.frames.filter((f) => f.compared).length },
      });
      return frames;
    },
  );

  app.get(consoleInsightPaths.caseBundle, { schema: { hide: true, params: caseParams, querystring: grantorQuery } }, async (request, reply) => {
    noStore(reply);
    const { session, user } = await requireSession(request, reply);
    await touch(session);
    const uuidTrx = request.params.uuidTrx.toLowerCase();
    if (!bundleRoles.has(user.role)) {
      await store.audit(db, { action: 'case_bundle_refused', userId: user.id, grantorId: user.grantorId, ip: request.ip, detail: { uuidTrx, role: user.role } });
      throw new HttpError(403, 'Only a reviewer or an admin may download the evidence bundle', 'Tu rol no permite descargar el expediente.');
    }
    const { row, transaction, grantorId } = await visibleCase(request, user, uuidTrx, request.query.grantorId);
    if (!(await findOutcome(db, row.uuidTrx))) {
      throw new HttpError(409, 'The case is not finished: its bundle is built once it is', 'Podrás descargar el expediente cuando el proceso concluya.');
    }
    const { key, sha256, reused } = await caseBundle(deps, request, { uuidTrx: row.uuidTrx, uuidUser: transaction.uuidUser, grantorId });
    const blob = await blobs.get(key);
    await store.audit(db, { action: 'case_bundle_downloaded', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx, sha256, reused } });
    return reply
      .header('content-type', 'application/zip')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename="expediente-${row.uuidTrx.slice(0, 8)}.zip"`)
      .send(blob.buffer);
  });
}
