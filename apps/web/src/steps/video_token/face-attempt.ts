import { api } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { CallRefusal, type FaceCalls } from './face-calls';
import { canvasToBlob, grabFrame } from '../../media/capture';
import { originOS, type PlatformHints } from '../../media/platform';
import { connectRealtime, startMessage, type RealtimeReply, type RealtimeSession } from '../../media/realtime';
import { startRecording, type Recording } from '../../media/recorder';
import { wait } from '../../media/wait';
import type { SessionFacts } from '../../session/session';
import type { FaceEvent } from './face-machine';
import { serviceCall, type FaceFlow } from './forms';
import type { FaceFailure } from './outcomes';
import { captureDelayMs, displayDelayMs, faceTimings, shownDigits, viewChangesMs, type VideoPath } from './schedule';
import { isCodes, type Codes } from './state';
import { withWatchdog } from './watchdog';

/** Spec §9 "face photo JPEG 0.9". */
const photoType = 'image/jpeg';
const photoQuality = 0.9;

export interface FaceResult {
  match: boolean;
  liveness: boolean | string;
  documentLink?: string | undefined;
}

/** A failed attempt, carried out of the attempt's async sequence. */
export class AttemptFailure extends Error {
  constructor(readonly failure: FaceFailure) {
    super(failure.kind);
  }
}

function failureOfError(error: unknown, kind: 'token' | 'response'): FaceFailure {
  if (error instanceof AttemptFailure) return error.failure;
  if (error instanceof ApiError && error.hasResponse) {
    return { kind, status: error.status ?? 0, message: error.message, messageClient: error.messageClient };
  }
  if (error instanceof CallRefusal) return { kind, status: error.status, message: error.message, messageClient: error.messageClient };
  return { kind: 'network' };
}

function resultOfReply(reply: RealtimeReply): FaceResult {
  const payload = reply.res.payload;
  if (reply.status === 200 && payload?.match === true) {
    return { match: true, liveness: payload.liveness ?? true, documentLink: payload.documentLink };
  }
  throw new AttemptFailure({ kind: 'response', status: reply.status, message: reply.res.message, messageClient: reply.res.message_client });
}

/** What one attempt needs: the flow's facts, the camera, and where to report its progress. */
export interface AttemptContext {
  flow: FaceFlow;
  step: 'video_token' | 'pdf_video_token' | 'repetir';
  /** The code and video calls of the flow (the journey's, the result link's or a redo link's). */
  calls: FaceCalls;
  path: VideoPath;
  platform: PlatformHints;
  ios: boolean;
  passport: boolean;
  retry: boolean;
  session: SessionFacts;
  video: HTMLVideoElement;
  stream: MediaStream;
  /** The camera's label and settings, sent with the video (issue 18: a virtual camera is recorded, or refused). */
  camera: Promise<string | undefined>;
  signal: AbortSignal;
  dispatch: (event: FaceEvent) => void;
  /** The code is kept in the session (the list of codes) as soon as it arrives. */
  onCodes: (codes: Codes) => void;
}

/** What the screen's clean-up must release when it leaves during an attempt. */
export interface AttemptResources {
  recording: Recording | null;
  realtime: RealtimeSession | null;
  realtimeSetup: Promise<RealtimeSession> | null;
}

/** The photo after the capture delay, sent to obtain the code (otp, or publicOtp in the link flow). */
async function requestCode(ctx: AttemptContext): Promise<Codes> {
  ctx.dispatch({ type: 'photo' });
  await wait(captureDelayMs(ctx.ios), ctx.signal);
  const photo = await canvasToBlob(grabFrame(ctx.video), photoType, photoQuality);
  ctx.dispatch({ type: 'token' });
  try {
    // The answer is not validated in the browser: the code drives the attempt, so it is checked here.
    const codes = await ctx.calls.code(photo, ctx.signal);
    if (!isCodes(codes)) throw new AttemptFailure({ kind: 'token', status: 500, message: 'otp answered without codes' });
    return codes;
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new AttemptFailure(failureOfError(error, 'token'));
  }
}

/** The recorder path's upload of the video with its fields, and the verdict. */
async function uploadVideo(ctx: AttemptContext, video: Blob, codes: Codes, uploadSignal: AbortSignal): Promise<FaceResult> {
  const fields = { uuidUser: ctx.session.uuidUser ?? '', codes, origin: originOS(ctx.platform), camera: await ctx.camera, passport: ctx.passport, ios: ctx.ios };
  try {
    const payload = await ctx.calls.video(video, fields, uploadSignal);
    if (payload?.match === true) return { match: true, liveness: payload.liveness ?? true, documentLink: payload.documentLink };
    throw new AttemptFailure({ kind: 'response', status: 200 });
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new AttemptFailure(failureOfError(error, 'response'));
  }
}

/**
 * The real-time path: the connection is set up during the stability wait; the start message goes at time 0: the
 * server records from it and expects the digits at the code's schedule, as in the recorder path's video.
 */
async function openRealtime(ctx: AttemptContext, codes: Codes): Promise<RealtimeSession> {
  const { session, flow, step, signal } = ctx;
  return connectRealtime({
    stream: ctx.stream,
    signalling: {
      // The connection is opened for this transaction (its headers); the link flow proves it with its credential.
      open: () =>
        api().request('recordConnections', {
          step,
          signal,
          ...(flow === 'link' ? { headers: { 'X-Consumer-Custom-ID': session.linkToken ?? '' } } : {}),
        }),
      answer: async (id, description) => {
        await api().request('recordRemoteDescription', { step, params: { id }, body: description, signal });
      },
      close: async (id) => {
        await api().request('recordClose', { step, params: { id } });
      },
    },
    message: startMessage({
      uuidUser: session.uuidUser ?? '',
      uuidTrx: session.uuidTrx ?? '',
      // VIDEO_TOKEN_PDF is authorised by the link credential (the link flow has no api key).
      apikey: (flow === 'link' ? session.linkToken : session.apikey) ?? '',
      code: codes,
      type: flow === 'link' ? 'VIDEO_TOKEN_PDF' : 'VIDEO_TOKEN',
      service: serviceCall(flow),
      passport: ctx.passport,
      platform: ctx.platform,
      camera: await ctx.camera,
    }),
  });
}

/** The stability wait, then the recording (or the real-time session) started at the reading's time 0. */
async function startCapture(ctx: AttemptContext, codes: Codes, held: AttemptResources): Promise<void> {
  if (ctx.path === 'tiempo_real') {
    held.realtimeSetup = openRealtime(ctx, codes);
    // Its failure is read after the wait; until then it must not be reported as unhandled.
    held.realtimeSetup.catch(() => undefined);
  }
  await wait(faceTimings.stabilityWaitMs, ctx.signal);
  if (held.realtimeSetup) {
    try {
      held.realtime = await held.realtimeSetup;
    } catch (error) {
      if (isAbortError(error) || ctx.signal.aborted) throw error;
      throw new AttemptFailure({ kind: 'network' });
    }
  } else {
    held.recording = startRecording(ctx.stream, ctx.ios);
  }
  held.realtime?.start();
}

/** The digits at the code's schedule: each change of the screen at its own time from the start (timers drift; the clock does not). */
async function readDigits(ctx: AttemptContext, codes: Codes): Promise<void> {
  const started = performance.now();
  ctx.dispatch({ type: 'reading' });
  const until = (at: number) => wait(Math.max(0, started + at - performance.now()), ctx.signal);
  for (const at of viewChangesMs(codes.schedule)) {
    await until(at);
    ctx.dispatch({ type: 'tick', elapsed: at });
  }
  await until(codes.schedule.stopMs);
  ctx.dispatch({ type: 'tick', elapsed: codes.schedule.stopMs });
}

/** The stop and the verdict: finish_record (real time) or stop and send (recorder), under the watchdog. */
async function verdict(ctx: AttemptContext, codes: Codes, held: AttemptResources): Promise<FaceResult> {
  const watched = (run: (watchdogSignal: AbortSignal) => Promise<FaceResult>) => withWatchdog(run, faceTimings.watchdogMs, ctx.signal, () => new AttemptFailure({ kind: 'watchdog' }));
  const live = held.realtime;
  if (live) {
    live.finish();
    return watched(() =>
      live.reply.then(resultOfReply, (error: unknown) => {
        throw error instanceof AttemptFailure ? error : new AttemptFailure({ kind: 'network' });
      }),
    );
  }
  const active = held.recording;
  held.recording = null;
  if (!active) throw new Error('no recording');
  // Recorder path: the stop sends, a second later the screen shows processing.
  void wait(faceTimings.tickMs, ctx.signal).then(
    () => ctx.dispatch({ type: 'tick', elapsed: codes.schedule.stopMs + faceTimings.tickMs }),
    () => undefined,
  );
  const video = await active.stop();
  return watched((watchdogSignal) => uploadVideo(ctx, video, codes, watchdogSignal));
}

/**
 * One attempt of the face video: the positioning delay, the photo and its code, the stability wait, the digits at
 * their schedule, and the verdict. Resolves with a match; rejects with an AttemptFailure (or an abort).
 */
export async function runAttempt(ctx: AttemptContext, held: AttemptResources): Promise<FaceResult> {
  ctx.dispatch({ type: 'attemptStarted' });
  await wait(displayDelayMs(ctx.retry), ctx.signal);
  const codes = await requestCode(ctx);
  ctx.onCodes(codes);
  ctx.dispatch({ type: 'codeReceived', code: codes.code.slice(0, shownDigits), schedule: codes.schedule });
  await startCapture(ctx, codes, held);
  await readDigits(ctx, codes);
  return verdict(ctx, codes, held);
}

/** Releases what an attempt holds (the screen left, or the attempt ended). */
export function releaseAttempt(held: AttemptResources): void {
  held.recording?.cancel();
  held.recording = null;
  held.realtime?.close();
  held.realtime = null;
  held.realtimeSetup?.then(
    (opened) => opened.close(),
    () => undefined,
  );
  held.realtimeSetup = null;
}
