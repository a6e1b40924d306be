import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { paramInt, paramValue } from '@kyc/contracts/params';
import { api, sendAudit } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { openFaceCamera } from '../../media/camera';
import { cameraInfoField, describeCamera } from '../../media/camera-info';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import { canvasToBlob, grabFrame } from '../../media/capture';
import type { Size } from '../../media/geometry';
import { currentPlatform, isIOS, originOS } from '../../media/platform';
import { connectRealtime, startMessage, type RealtimeReply, type RealtimeSession } from '../../media/realtime';
import { recorderSupported, startRecording, type Recording } from '../../media/recorder';
import { useCamera } from '../../media/useCamera';
import { useGrantorParams } from '../../session/grantor';
import { readSession } from '../../session/session';
import { sessionState } from '../../session/storage';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { CancelDialog } from '../../ui/CancelDialog';
import { Dialog } from '../../ui/Dialog';
import { ProcessFailed } from '../../ui/ProcessFailed';
import { Screen } from '../../ui/Screen';
import { faceCopy as copy } from './copy';
import { FaceGuide, TipIcon } from './FaceGuide';
import { linkCall, linkVideoForm, otpForm, serviceCall, videoTokenForm, type FaceFlow } from './forms';
import { applyFailure, attemptRules, attemptsExhausted, describeFailure, dialogAction, type FaceFailure, type FailureView, type VideoAttempts } from './outcomes';
import { captureDelayMs, displayDelayMs, faceTimings, readingView, shownDigits, videoPathOf, viewChangesMs, type DigitSchedule } from './schedule';
import { withWatchdog } from './watchdog';
import { isCodes, isPassportCapture, readVideoAttempts, storeCodes, storeFaceMatch, storeNoMatch, writeVideoAttempts, type Codes } from './state';
import '../../ui/capture.css';
import './face.css';
import { wait } from '../../media/wait';

/** Spec §9 "face photo JPEG 0.9". */
const photoType = 'image/jpeg';
const photoQuality = 0.9;

type Phase = 'intro' | 'camera' | 'failed' | 'cameraError';
/** Where an attempt is: positioning, photo, code request, stability wait, reading the digits, waiting for the verdict. */
type Stage = 'position' | 'photo' | 'token' | 'stability' | 'reading' | 'matched';

interface FaceResult {
  match: boolean;
  liveness: boolean | string;
  documentLink?: string | undefined;
}

/** A failed attempt, carried out of the attempt's async sequence. */
class AttemptFailure extends Error {
  constructor(readonly failure: FaceFailure) {
    super(failure.kind);
  }
}

function failureOfError(error: unknown, kind: 'token' | 'response'): FaceFailure {
  if (error instanceof AttemptFailure) return error.failure;
  if (error instanceof ApiError && error.hasResponse) {
    return { kind, status: error.status ?? 0, message: error.message, messageClient: error.messageClient };
  }
  return { kind: 'network' };
}

function resultOfReply(reply: RealtimeReply): FaceResult {
  const payload = reply.res.payload;
  if (reply.status === 200 && payload?.match === true) {
    return { match: true, liveness: payload.liveness ?? true, documentLink: payload.documentLink };
  }
  throw new AttemptFailure({ kind: 'response', status: reply.status, message: reply.res.message, messageClient: reply.res.message_client });
}

/**
 * The face video token (docs/flow.md §2 "Face video token", §4 "Face video", §8, §9) of the main flow (/video_token)
 * and of the result-link flow (/pdf_video_token): intro, camera with a face guide, a photo that obtains the
 * code, the stability wait, the digits at the code's schedule, then the recording sent (recorder path) or the real-time
 * capture finished, and the verdict: a match moves on, an error opens 'Lo sentimos', exhausted attempts end it.
 */
export function FaceVideo({ flow }: { flow: FaceFlow }) {
  const step = flow === 'link' ? 'pdf_video_token' : 'video_token';
  const journey = useJourney(step);
  const params = useGrantorParams();
  const path = videoPathOf(paramValue(params, 'MODO_VIDEO_TOKEN'));
  const platform = useMemo(() => currentPlatform(), []);
  const ios = isIOS(platform);
  // Spec §9: the link variant allows 5 video attempts, 3 of them retried in place (the server counts them apart).
  const rules = attemptRules(flow, paramInt(params, 'INTENTOS_VIDEO_TOKEN'));

  const [attempts, setAttempts] = useState<VideoAttempts>(() => readVideoAttempts(sessionState(), rules.max, Date.now()));
  const [phase, setPhase] = useState<Phase>(() => (attemptsExhausted(attempts) ? 'failed' : 'intro'));
  const [stage, setStage] = useState<Stage>('position');
  // Ms since the recording started (the reading sequence's time 0), -1 before; the screen follows the code's schedule.
  const [elapsed, setElapsed] = useState(-1);
  const [code, setCode] = useState('');
  const [schedule, setSchedule] = useState<DigitSchedule | null>(null);
  const [failure, setFailure] = useState<FailureView | null>(null);
  const [retry, setRetry] = useState(false);
  const [run, setRun] = useState(0);
  const [ready, setReady] = useState(false);
  const [frame, setFrame] = useState<Size | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [cameraError, setCameraError] = useState<CameraErrorKind>('other');
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (path === 'grabacion' && !recorderSupported()) journey({ type: 'recorderUnsupported' });
  }, [path, journey]);

  const onCameraFailure = useCallback(
    (kind: CameraErrorKind, error: unknown) => {
      sendAudit(step, 'Error', cameraErrorDatum(kind, error)).catch(() => undefined);
      setCameraError(kind);
      setPhase('cameraError');
    },
    [step],
  );
  const stream = useCamera(phase === 'camera', openFaceCamera, onCameraFailure);
  useEffect(() => {
    if (!stream) setReady(false);
  }, [stream]);

  const attemptsRef = useRef(attempts);
  const fail = useCallback(
    (what: FaceFailure) => {
      const view = describeFailure(what);
      const storage = sessionState();
      if (view.restart) storeNoMatch(storage);
      sendAudit(step, 'Error', JSON.stringify({ motivo: what.kind, status: 'status' in what ? what.status : null, mensaje: view.message })).catch(() => undefined);
      const next = applyFailure(attemptsRef.current, view);
      attemptsRef.current = next;
      writeVideoAttempts(storage, next);
      setAttempts(next);
      if (attemptsExhausted(next)) {
        journey({ type: 'attemptsExhausted' });
        setPhase('failed');
      } else {
        setFailure(view);
      }
    },
    [journey, step],
  );

  // One attempt per (run, camera ready): a retry bumps `run`; leaving the camera aborts it.
  useEffect(() => {
    if (phase !== 'camera' || !ready || failure || !stream) return;
    const video = videoRef.current;
    if (!video) return;
    const controller = new AbortController();
    const { signal } = controller;
    let recording: Recording | null = null;
    let realtime: RealtimeSession | null = null;
    let realtimeSetup: Promise<RealtimeSession> | null = null;
    const session = readSession();
    const storage = sessionState();
    const passport = isPassportCapture(storage);

    async function requestCode(): Promise<Codes> {
      setStage('photo');
      await wait(captureDelayMs(ios), signal);
      const photo = await canvasToBlob(grabFrame(video as HTMLVideoElement), photoType, photoQuality);
      setStage('token');
      try {
        const form = otpForm(photo, session.uuidUser ?? '');
        const response = await (flow === 'link'
          ? api().postMultipart<{ payload?: { codes?: unknown } }>('publicOtp', form, { step, signal, ...linkCall(session.linkToken) })
          : api().postMultipart<{ payload?: { codes?: unknown } }>('otp', form, { step, signal }));
        const codes = response.payload?.codes;
        if (!isCodes(codes)) throw new AttemptFailure({ kind: 'token', status: 500, message: 'otp answered without codes' });
        return codes;
      } catch (error) {
        if (isAbortError(error)) throw error;
        throw new AttemptFailure(failureOfError(error, 'token'));
      }
    }

    // The camera's label and settings go with the video (issue 18: a virtual camera is recorded, or refused).
    const camera = describeCamera(stream?.getVideoTracks()[0]).then(cameraInfoField, () => undefined);

    async function uploadVideo(video: Blob, codes: Codes, uploadSignal: AbortSignal): Promise<FaceResult> {
      const fields = { uuidUser: session.uuidUser ?? '', codes, origin: originOS(platform), camera: await camera };
      try {
        const response = await (flow === 'link'
          ? api().postMultipart<{ payload?: Partial<FaceResult> }>('publicVideoToken', linkVideoForm(video, fields), { step, signal: uploadSignal, ...linkCall(session.linkToken) })
          : api().postMultipart<{ payload?: Partial<FaceResult> }>('videoToken', videoTokenForm(video, { ...fields, flow, passport, ios }), { step, signal: uploadSignal }));
        const payload = response.payload;
        if (payload?.match === true) return { match: true, liveness: payload.liveness ?? true, documentLink: payload.documentLink };
        throw new AttemptFailure({ kind: 'response', status: 200 });
      } catch (error) {
        if (isAbortError(error)) throw error;
        throw new AttemptFailure(failureOfError(error, 'response'));
      }
    }

    const watched = (verdict: (watchdogSignal: AbortSignal) => Promise<FaceResult>) => withWatchdog(verdict, faceTimings.watchdogMs, signal, () => new AttemptFailure({ kind: 'watchdog' }));

    async function attempt(): Promise<FaceResult> {
      setStage('position');
      setElapsed(-1);
      setCode('');
      setSchedule(null);
      await wait(displayDelayMs(retry), signal);
      const codes = await requestCode();
      storeCodes(storage, codes);
      setCode(codes.code.slice(0, shownDigits));
      setSchedule(codes.schedule);
      setStage('stability');
      if (path === 'tiempo_real' && stream) {
        // The connection is set up during the stability wait; the start message goes at time 0: the server records
        // from it and expects the digits at the code's schedule, as in the recorder path's video.
        realtimeSetup = connectRealtime({
          stream,
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
            passport,
            platform,
            camera: await camera,
          }),
        });
        // Its failure is read after the wait; until then it must not be reported as unhandled.
        realtimeSetup.catch(() => undefined);
      }
      await wait(faceTimings.stabilityWaitMs, signal);
      if (realtimeSetup) {
        try {
          realtime = await realtimeSetup;
        } catch (error) {
          if (isAbortError(error) || signal.aborted) throw error;
          throw new AttemptFailure({ kind: 'network' });
        }
      } else if (stream) {
        recording = startRecording(stream, ios);
      }
      (realtime as RealtimeSession | null)?.start();
      const started = performance.now();
      setStage('reading');
      // Each change of the screen at its own time from the start (timers drift; the clock does not).
      const until = (at: number) => wait(Math.max(0, started + at - performance.now()), signal);
      for (const at of viewChangesMs(codes.schedule)) {
        await until(at);
        setElapsed(at);
      }
      await until(codes.schedule.stopMs);
      // The stop: finish_record (real time) or stop and send (recorder).
      setElapsed(codes.schedule.stopMs);
      const live = realtime as RealtimeSession | null;
      if (live) {
        live.finish();
        return watched(() =>
          live.reply.then(resultOfReply, (error: unknown) => {
            throw error instanceof AttemptFailure ? error : new AttemptFailure({ kind: 'network' });
          }),
        );
      }
      const active = recording as Recording | null;
      recording = null;
      if (!active) throw new Error('no recording');
      // Recorder path: the stop sends, a second later the screen shows processing.
      void wait(faceTimings.tickMs, signal).then(
        () => setElapsed(codes.schedule.stopMs + faceTimings.tickMs),
        () => undefined,
      );
      const video = await active.stop();
      return watched((watchdogSignal) => uploadVideo(video, codes, watchdogSignal));
    }

    attempt()
      .then(
        (result) => {
          if (signal.aborted) return;
          storeFaceMatch(storage, result);
          setStage('matched');
          journey({ type: 'matched' });
        },
        (error: unknown) => {
          if (signal.aborted || isAbortError(error)) return;
          fail(error instanceof AttemptFailure ? error.failure : { kind: 'network' });
        },
      )
      .finally(() => {
        (realtime as RealtimeSession | null)?.close();
        realtime = null;
      });

    return () => {
      controller.abort();
      (recording as Recording | null)?.cancel();
      recording = null;
      (realtime as RealtimeSession | null)?.close();
      realtimeSetup?.then(
        (opened) => opened.close(),
        () => undefined,
      );
    };
    // `retry` and the flow facts are read when a run starts; a run is restarted only through `run`.
  }, [phase, ready, failure, stream, run]);

  const cancelDialog = <CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed', ruta: step })} />;

  if (phase === 'cameraError') return <CameraErrorNotice kind={cameraError} step={step} />;

  if (phase === 'failed') {
    return <ProcessFailed message={copy.attemptsExceeded} step={step} onAcknowledge={() => journey({ type: 'acknowledgeFailure' })} />;
  }

  if (phase === 'intro') {
    return (
      <Screen
        key="intro"
        title={copy.title}
        step={step}
        className="face-intro"
        actions={
          <>
            <button type="button" className="btn btn--primary" onClick={() => setPhase('camera')}>
              {copy.continue}
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setCancelOpen(true)}>
              {copy.cancel}
            </button>
          </>
        }
      >
        <p>{copy.intro}</p>
        <h2 className="section-title">{copy.tipsTitle}</h2>
        <ul className="capture-tips">
          {(Object.keys(copy.tips) as (keyof typeof copy.tips)[]).map((tip) => (
            <li key={tip}>
              <TipIcon name={tip} />
              {copy.tips[tip]}
            </li>
          ))}
        </ul>
        <p className="face-intro__note">{copy.permissions}</p>
        {cancelDialog}
      </Screen>
    );
  }

  const view = stage === 'reading' && schedule && elapsed >= 0 ? readingView(elapsed, code, schedule, path) : null;
  const titleVisible = stage === 'stability' || (view?.titleVisible ?? false);
  // Behind 'Lo sentimos' the camera shows no stale progress.
  const processing = (view?.processing ?? false) && failure === null;
  const prompt = failure
    ? null
    : stage === 'position'
      ? copy.position
      : stage === 'photo'
        ? copy.photo
        : stage === 'token'
          ? copy.token
          : stage === 'stability'
            ? copy.stability
            : stage === 'matched'
              ? copy.matched
              : processing
                ? copy.processing
                : view?.motion
                  ? copy.turn[view.motion]
                  : null;
  const left = attempts.max - attempts.used;
  const action = failure ? dialogAction(failure, attempts, rules) : 'retry';

  return (
    <Screen
      key="camera"
      title={copy.title}
      step={step}
      className="capture face-video"
      actions={
        <button type="button" className="btn btn--secondary" disabled={processing || stage === 'matched'} onClick={() => setCancelOpen(true)}>
          {copy.cancel}
        </button>
      }
    >
      <CameraStage
        stream={stream}
        videoRef={videoRef}
        label={copy.videoLabel}
        mirrored
        onReady={(size) => {
          setFrame(size);
          setReady(true);
        }}
        onFailure={(error) => onCameraFailure(classifyCameraError(error), error)}
      >
        <FaceGuide active={stage === 'reading' && !processing} frame={frame} />
        <div className="face-video__overlay">
          <p className="face-video__prompt" role="status" aria-live="polite" data-stage={processing ? 'processing' : stage}>
            {titleVisible ? <strong className="face-video__read">{copy.read}</strong> : null}
            {prompt ? <span>{prompt}</span> : null}
          </p>
          {view && view.slot !== null && !processing && !view.motion ? (
            <div className="face-video__digits" role="status" aria-live="assertive" aria-atomic="true">
              <span className="visually-hidden">{view.slot < shownDigits ? `${copy.digitLabel(view.slot + 1, shownDigits)}: ${view.digit}` : copy.done}</span>
              <span key={view.slot} className="face-video__digit" data-slot={view.slot} aria-hidden="true">
                {view.digit}
              </span>
              <span className="face-video__dots" aria-hidden="true">
                {Array.from({ length: shownDigits }, (_, index) => (
                  <span key={index} className={index <= (view.slot ?? -1) ? 'face-video__dot face-video__dot--on' : 'face-video__dot'} />
                ))}
              </span>
            </div>
          ) : null}
          {processing || stage === 'token' ? <span className="spinner face-video__spinner" aria-hidden="true" /> : null}
        </div>
      </CameraStage>
      <Dialog
        open={failure !== null}
        title={copy.errorTitle}
        // Escape keeps the dialog: leaving the face video is the explicit Cancelar.
        onClose={() => undefined}
        actions={
          <>
            <button
              type="button"
              className="btn btn--primary"
              data-autofocus
              onClick={() => {
                // Back to the link's landing page: the dialog stays until the page changes (no attempt restarts here).
                if (action === 'restartLink') {
                  journey({ type: 'restartLink' });
                  return;
                }
                setFailure(null);
                if (action === 'restartStep') {
                  setRetry(false);
                  setPhase('intro');
                } else {
                  setRetry(true);
                  setRun((n) => n + 1);
                }
              }}
            >
              {action === 'retry' ? copy.errorRetry : copy.errorRestart}
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => journey({ type: 'abandon' })}>
              {copy.errorCancel}
            </button>
          </>
        }
      >
        <p className="face-error__message" data-testid="face-error">
          {failure?.message}
        </p>
        {failure?.hint ? <p>{failure.hint}</p> : null}
        {attempts.used > 0 && left > 0 ? <p className="face-error__attempts">{copy.attemptsLeft(left)}</p> : null}
      </Dialog>
      {cancelDialog}
    </Screen>
  );
}
