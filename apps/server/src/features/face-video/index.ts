/**
 * One face-video attempt, end to end, for the recorded upload (`POST /v2/videotoken`) and the real-time path
 * (a file recorded by the media server) alike: the transaction's lock and attempts (INTENTOS_VIDEO_TOKEN), the
 * one-time code, decoding, the decision (analyse.ts), the encrypted video and its `video_token` evidence.
 * Returns the reply instead of throwing, so that callers on other transports can relay it.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { faceMessages, grantorParamDefaults, paramEnabled, paramInt, paramValue, type GrantorParam } from '@kyc/contracts';
import type { BlobStore } from '../../blob/blob-store.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { FaceEngineProvider } from '../../engines/face/provider.js';
import { decodeMedia, MediaError, type DecodeOptions, type MediaInput } from '../../engines/media/decode.js';
import type { Db } from '../../store/db.js';
import { addEvidence, latestEvidence } from '../../store/evidence.js';
import { checkOpen, runAttempt, type AttemptWork } from '../../attempts/service.js';
import { findCode, useCode } from './codes-store.js';
import { compactTimestamp } from '../../domain/evidence.js';
import { evidenceKind, type VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { attemptSteps, refusalMessages, type AttemptCounter } from '../../domain/attempts.js';
import { analyseVideo, holderEmbedding } from './analyse.js';
import { cameraRecord } from '../../domain/camera.js';
import { codeRefusal, codeState, SHOWN_DIGITS } from './codes.js';
import { recorderCheck } from './container.js';
import { challengeWindow } from './liveness.js';
import { attemptEffect, exhaustedRefusal, failureRefusal, type VideoTokenOutcome } from './outcome.js';
import { refusal, type Refusal } from '../../domain/refusal.js';
import { specSchedule } from './schedule.js';
import { noSpeechRecognizer, type SpeechRecognizer } from '../../engines/speech/spoken-code.js';
import type { ReadingPrint } from './reading-print.js';
import { findRepeatedReading, recordReading } from './readings-store.js';

export { analyseVideo, holderEmbedding } from './analyse.js';
export { challengeWindow };
export { issueCode, CODE_LIFETIME_MS } from './codes.js';
export { drawSchedule, specSchedule, type ChallengeSchedule } from './schedule.js';
export { noSpeechRecognizer, type SpeechRecognizer, type SpokenCodeCheck } from '../../engines/speech/spoken-code.js';

export interface VideoTokenDeps {
  db: Db;
  cipher: DataCipher;
  blobs: BlobStore;
  face: FaceEngineProvider;
  speech?: SpeechRecognizer;
  decode?: DecodeOptions;
}

export type VideoContentType = 'video/webm' | 'video/mp4' | 'video/quicktime' | 'video/x-matroska';

export interface VideoTokenRequest {
  grantorId: string;
  uuidTrx: string;
  uuidUser: string;
  /** The grantor's parameters (INTENTOS_VIDEO_TOKEN, UMBRAL_ROSTRO). */
  params: readonly GrantorParam[];
  /** The recording: bytes already checked to be a video (sniffed), or a file written by the media server. */
  video: MediaInput;
  contentType: VideoContentType;
  /** The code's created and expire values as issued by /v1/otp or /v1/videotoken/code. */
  created: string;
  expire: string;
  /** 'videotoken-embedding', 'videotoken-pdf' or the real-time service name; kept with the evidence. */
  serviceCall: string;
  originOS?: string;
  /** The browser's `info_camara` field (JSON: camera label and track settings), as received. */
  cameraInfo?: string;
  /**
   * 'upload' (the browser's MediaRecorder file: its container is checked) or 'realtime' (written by the media
   * server: not checked). Default 'upload'.
   */
  source?: 'upload' | 'realtime';
  /**
   * The attempts counter and its limit when not the main flow's (`video_token`, INTENTOS_VIDEO_TOKEN): the
   * result-link flow counts its own (docs/flow.md §9: 5 in the link variant).
   */
  attempts?: { step: string; limit: number };
  now?: Date;
}

export type VideoTokenResult =
  | { ok: true; payload: { match: true; liveness: true }; decision: VideoTokenDecision; evidenceId: string }
  | { ok: false; refusal: Refusal; decision?: VideoTokenDecision; evidenceId?: string };

const extensions: Record<VideoContentType, string> = { 'video/webm': 'webm', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/x-matroska': 'mkv' };

/** The face-match threshold of the grantor (UMBRAL_ROSTRO), the default when unset or not a number in [0, 1]. */
export function faceThreshold(params: readonly GrantorParam[]): number {
  const value = Number.parseFloat(paramValue(params, 'UMBRAL_ROSTRO'));
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : Number.parseFloat(grantorParamDefaults.UMBRAL_ROSTRO);
}

function mediaRefusal(error: MediaError): Refusal {
  switch (error.reason) {
    case 'too_long':
      return refusal('video_too_long', `The video is too long: ${error.message}`);
    case 'no_video_stream':
      return refusal('video_unusable', `Not a usable video: ${error.message}`);
    case 'ffmpeg_missing':
      return refusal('video_decoder_missing', `Video decoding is unavailable: ${error.message}`);
    case 'timeout':
      return refusal('video_decode_timeout', `The video could not be decoded in time: ${error.message}`);
    default:
      return refusal('video_unreadable', `Unreadable video: ${error.message}`);
  }
}

/** The face video's counter: a video refused because the attempts are used up locks the transaction again. */
export function videoCounter(request: Pick<VideoTokenRequest, 'attempts' | 'params'>): AttemptCounter {
  const step = request.attempts?.step ?? attemptSteps.videoToken.step;
  const limit = request.attempts?.limit ?? paramInt(request.params, attemptSteps.videoToken.limitParam);
  return { step, limit, lockWhenRefused: true };
}

const lockedRefusal = refusal('transaction_locked', 'Attempts exhausted: the transaction is locked');

/**
 * One face-video attempt: spent before the work (attempts/service.ts); a match, a recoverable capture message, a
 * refused code or video and a busy or failing engine give it back, a failed match or phrase keeps it, a spoof uses
 * them all; the attempt that leaves none locks the transaction.
 */
export async function decideVideoToken(deps: VideoTokenDeps, request: VideoTokenRequest): Promise<VideoTokenResult> {
  const now = request.now ?? new Date();
  const open = await checkOpen(deps.db, request.uuidTrx, now);
  if (open === 'unknown') return { ok: false, refusal: refusal('transaction_unknown', 'Unknown transaction') };
  if (open === 'locked') return { ok: false, refusal: lockedRefusal };
  const run = await runAttempt(deps.db, request.uuidTrx, videoCounter(request), () => decideOnce(deps, request, now), now);
  if (!run.ran) return { ok: false, refusal: refusal('attempts_exhausted', refusalMessages[run.reason]) };
  const { result, outcome } = run.value;
  // A spoof answers 'Spoof detected' (the flow then shows its final screen); other failures that used the last attempt answer 429.
  if (!result.ok && run.tally.locked && outcome?.kind !== 'spoof') return { ...result, refusal: exhaustedRefusal };
  return result;
}

type Decided = { result: VideoTokenResult; outcome?: VideoTokenOutcome };

const refused = (reason: Refusal): AttemptWork<Decided> => ({
  value: { result: { ok: false, refusal: reason } },
  effect: 'none',
});

async function decideOnce(deps: VideoTokenDeps, request: VideoTokenRequest, now: Date): Promise<AttemptWork<Decided>> {
  const { db, cipher, blobs } = deps;
  const issued = await findCode(db, cipher, request.uuidTrx, request.created, request.expire);
  const state = codeState(issued, now);
  if (state !== 'usable' || !issued) return refused(codeRefusal[state === 'usable' ? 'unknown' : state]);

  const holder = await latestEvidence(db, cipher, request.uuidTrx, evidenceKind.holderPhoto);
  if (!holder?.blobKey) {
    return refused(refusal('holder_photo_missing', `${faceMessages.comparisonFailed}: the ID front with the holder's photo was not read for this transaction`, faceMessages.comparisonFailed));
  }

  const camera = cameraRecord(request.cameraInfo, paramEnabled(request.params, 'RECHAZAR_CAMARA_VIRTUAL'));
  const threshold = faceThreshold(request.params);
  type Ran = { refused: Refusal } | { analysis: Pick<Awaited<ReturnType<typeof analyseVideo>>, 'outcome' | 'decision' | 'timingsMs' | 'print'> };
  const ran = await deps.face.withSlot(async (engine): Promise<Ran> => {
    let media;
    try {
      media = await decodeMedia(request.video, deps.decode);
    } catch (error) {
      if (error instanceof MediaError) return { refused: mediaRefusal(error) };
      throw error;
    }
    // Only a usable video spends the code.
    if (!(await useCode(db, issued.id, now))) return { refused: codeRefusal.used };
    const checked = request.source !== 'realtime' ? recorderCheck(media.container) : null;
    const recorder: NonNullable<VideoTokenDecision['recorder']> = checked
      ? {
          checked: true,
          consistent: checked.consistent,
          origin: checked.origin,
          detail: checked.detail,
          container: checked.container,
          refused: checked.consistent === false && paramEnabled(request.params, 'RECHAZAR_VIDEO_NO_NAVEGADOR'),
        }
      : { checked: false, consistent: null, origin: 'realtime', detail: 'recorded by the real-time media server, not by the browser', refused: false };
    // The grantor refuses this source (a virtual camera, a file no browser recorded): decided without analysing it.
    if (camera.refused || recorder.refused) {
      const detail = camera.refused ? `the camera '${camera.label}' is a virtual camera (${camera.virtualCamera})` : `the file is not a browser recording: ${recorder.detail}`;
      const decision: VideoTokenDecision = {
        match: false,
        faceScore: null,
        threshold,
        liveness: { passed: false, spoof: false, signals: { verdict: `not judged: ${detail}` } },
        spokenCode: { verified: null, engine: 'none', detail: 'not checked: the source was refused' },
        camera,
        recorder,
      };
      return { analysis: { outcome: { kind: 'refused_source', detail }, decision, timingsMs: {}, print: undefined } };
    }
    const photo = await blobs.get(holder.blobKey!);
    // Described while the video's frames are tracked.
    const reference = holderEmbedding(engine, photo.buffer);
    reference.catch(() => undefined);
    const analysis = await analyseVideo(engine, media, reference, {
      code: issued.code,
      threshold,
      speech: deps.speech ?? noSpeechRecognizer,
      // The schedule shown with this code; the spec's fixed timing for a code issued before schedules were stored.
      // Both paths use it as is: the real-time recording starts when the start message arrives, sent at the
      // browser's time 0 (docs/decisions.md "Randomised digit schedule": its delay is within the answer latency).
      window: challengeWindow(issued.schedule ?? specSchedule(Math.min(issued.code.length, SHOWN_DIGITS))),
    });
    analysis.decision.camera = camera;
    analysis.decision.recorder = recorder;
    return { analysis };
  });
  if (ran === undefined) return refused(refusal('server_busy', 'Busy: too many face videos are being checked; try again'));
  if ('refused' in ran) return refused(ran.refused);

  const { decision, timingsMs } = ran.analysis;
  const print = ran.analysis.outcome.kind === 'match' ? ran.analysis.print : undefined;
  const outcome = print ? await judgeRepeatedReading(deps, request, print, decision) : ran.analysis.outcome;
  const reply = outcome.kind === 'match' ? undefined : failureRefusal(outcome);
  decision.service_call = request.serviceCall;
  if (reply) decision.message = reply.message;

  const bytes = 'buffer' in request.video ? request.video.buffer : await readFile(request.video.path);
  const key = `${request.grantorId}/${request.uuidUser}/video_token/${request.uuidTrx}-${compactTimestamp(now)}-${randomBytes(4).toString('hex')}.${extensions[request.contentType]}`;
  const video = await blobs.put(key, bytes, { contentType: request.contentType });
  const evidenceId = await addEvidence(
    db,
    cipher,
    {
      uuidTrx: request.uuidTrx,
      grantorId: request.grantorId,
      kind: evidenceKind.videoToken,
      blobKey: video.key,
      sha256: video.sha256,
      payload: { ...decision, outcome: outcome.kind, detail: 'detail' in outcome ? outcome.detail : undefined, originOS: request.originOS, timingsMs } satisfies VideoTokenDecision &
        Record<string, unknown>,
    },
    now,
  );

  if (print && outcome.kind === 'match') await recordReading(db, cipher, { uuidTrx: request.uuidTrx, grantorId: request.grantorId, evidenceId, print }, now);

  const result: VideoTokenResult = reply ? { ok: false, refusal: reply, decision, evidenceId } : { ok: true, payload: { match: true, liveness: true }, decision, evidenceId };
  return { value: { result, outcome }, effect: attemptEffect(outcome) };
}

/**
 * An accepted reading that repeats one already accepted for this holder is the recording of that session played
 * again (reading-print.ts): refused as the phrase failure with one attempt counted, unless the grantor turned
 * RECHAZAR_LECTURA_REPETIDA off (then only recorded). Not a spoof that locks the transaction: every replay of a kept
 * reading is refused again whatever the attempt, and a person whose new reading happened to fall on an earlier one
 * (about 1 in 6,600 pairs of sessions on the onsets alone) reads again (docs/decisions.md "A reading replayed from an
 * earlier session"). Updates the decision with what was compared and found.
 */
async function judgeRepeatedReading(deps: VideoTokenDeps, request: VideoTokenRequest, print: ReadingPrint, decision: VideoTokenDecision): Promise<VideoTokenOutcome> {
  const found = await findRepeatedReading(deps.db, deps.cipher, { uuidTrx: request.uuidTrx, grantorId: request.grantorId }, print);
  const refused = found.repeated !== null && paramEnabled(request.params, 'RECHAZAR_LECTURA_REPETIDA');
  decision.earlierReadings = { ...found, refused };
  if (!refused) return { kind: 'match' };
  const reason = `replayed_reading: the reading repeats the face video accepted as evidence ${found.repeated!.evidenceId} of transaction ${found.repeated!.uuidTrx}`;
  decision.match = false;
  decision.liveness = { ...decision.liveness, passed: false, signals: { ...decision.liveness.signals, verdict: `not_shown: ${reason}` } };
  return { kind: 'not_live', detail: reason };
}

export type { VideoTokenOutcome };
