import { useCallback, useEffect, useMemo, useReducer, useRef, type RefObject } from 'react';
import { isAbortError } from '../../api/client';
import { openFaceCamera } from '../../media/camera';
import { cameraInfoField, describeCamera } from '../../media/camera-info';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import type { Size } from '../../media/geometry';
import { currentPlatform, isIOS } from '../../media/platform';
import { useCamera } from '../../media/useCamera';
import type { SessionFacts } from '../../session/session';
import { AttemptFailure, releaseAttempt, runAttempt, type AttemptResources, type FaceResult } from './face-attempt';
import type { FaceCalls } from './face-calls';
import { faceReducer, initialFaceState, type FaceState } from './face-machine';
import type { FaceFlow } from './forms';
import { describeFailure, dialogAction, type AttemptRules, type FaceFailure, type VideoAttempts } from './outcomes';
import type { VideoPath } from './schedule';
import type { Codes } from './state';

export type FaceStep = 'video_token' | 'pdf_video_token' | 'repetir';

/** What the face-video screen renders and the actions its buttons call. */
export interface FaceVideoModel {
  step: FaceStep;
  path: VideoPath;
  state: FaceState;
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  actions: FaceActions;
}

export interface FaceActions {
  continue: () => void;
  cancel: () => void;
  dismissCancel: () => void;
  confirmCancel: () => void;
  /** The dialog's Reintentar/Reiniciar. */
  dialogPrimary: () => void;
  /** The dialog's Cancelar. */
  abandon: () => void;
  /** ENTENDIDO of 'Proceso no exitoso'. */
  acknowledgeFailure: () => void;
  cameraReady: (frame: Size) => void;
  cameraFailed: (error: unknown) => void;
}

/** How the face video leaves its screen: the flow decides where each end goes. */
export type FaceEnd = 'matched' | 'attemptsExhausted' | 'cancelConfirmed' | 'restartLink' | 'abandon' | 'acknowledgeFailure';

/** The flow around the face video: its calls, its attempts, what it keeps of each attempt and where it goes next. */
export interface FaceHost {
  step: FaceStep;
  flow: FaceFlow;
  path: VideoPath;
  rules: AttemptRules;
  /** The attempts already used when the screen opens. */
  initialAttempts: () => VideoAttempts;
  /** Read when a run starts: the calls and the flow's facts of that run. */
  runFacts: () => { calls: FaceCalls; session: SessionFacts; passport: boolean };
  end: (event: FaceEnd) => void;
  /** The attempts changed after a failure. */
  onAttempts?: (attempts: VideoAttempts) => void;
  onCodes?: (codes: Codes) => void;
  onMatch?: (result: FaceResult) => void;
  /** A no-match whose dialog restarts the step. */
  onNoMatch?: () => void;
  /** A failure worth recording in the flow's audit (the camera's or an attempt's). */
  audit?: (datum: string) => void;
}

/**
 * The face video's I/O (docs/flow.md §2 "Face video token", §4, §8, §9) around the pure `faceReducer`: the camera,
 * one attempt per (run, camera ready) — a retry bumps `run`, leaving the camera aborts it —, and the flow's hooks
 * (`FaceHost`) for what it keeps and where it goes at each end.
 */
export function useFaceAttempts(host: FaceHost): FaceVideoModel {
  const hostRef = useRef(host);
  hostRef.current = host;
  const { step, path, rules } = host;
  const platform = useMemo(() => currentPlatform(), []);
  const [state, dispatch] = useReducer(faceReducer, undefined, () => initialFaceState({ rules, attempts: host.initialAttempts() }));
  const initialAttempts = useRef(state.attempts);
  const videoRef = useRef<HTMLVideoElement>(null);

  const onCameraFailure = useCallback((kind: CameraErrorKind, error: unknown) => {
    hostRef.current.audit?.(cameraErrorDatum(kind, error));
    dispatch({ type: 'cameraFailed', kind });
  }, []);
  const stream = useCamera(state.phase === 'camera', openFaceCamera, onCameraFailure);
  useEffect(() => {
    if (!stream) dispatch({ type: 'cameraClosed' });
  }, [stream]);

  useEffect(() => {
    if (state.attempts !== initialAttempts.current) hostRef.current.onAttempts?.(state.attempts);
  }, [state.attempts]);

  // The step's ends go to the flow once.
  useEffect(() => {
    if (state.outcome === 'matched') hostRef.current.end('matched');
    if (state.outcome === 'exhausted') hostRef.current.end('attemptsExhausted');
  }, [state.outcome]);

  const fail = useCallback((what: FaceFailure) => {
    const view = describeFailure(what);
    if (view.restart) hostRef.current.onNoMatch?.();
    const status = 'status' in what ? what.status : null;
    hostRef.current.audit?.(JSON.stringify({ motivo: what.kind, status, mensaje: view.message }));
    dispatch({ type: 'failed', failure: view });
  }, []);

  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    const video = videoRef.current;
    if (state.phase !== 'camera' || !state.ready || state.failure || !stream || !video) return;
    const controller = new AbortController();
    const current = hostRef.current;
    const facts = current.runFacts();
    const held: AttemptResources = { recording: null, realtime: null, realtimeSetup: null };
    const context = {
      flow: current.flow,
      step: current.step,
      calls: facts.calls,
      path: current.path,
      platform,
      ios: isIOS(platform),
      passport: facts.passport,
      // Read when a run starts; a run is restarted only through `run`.
      retry: stateRef.current.retry,
      session: facts.session,
      video,
      stream,
      camera: describeCamera(stream.getVideoTracks()[0]).then(cameraInfoField, () => undefined),
      signal: controller.signal,
      dispatch,
      onCodes: (codes: Codes) => current.onCodes?.(codes),
    } as const;
    runAttempt(context, held)
      .then(
        (result) => {
          if (controller.signal.aborted) return;
          current.onMatch?.(result);
          dispatch({ type: 'matched' });
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbortError(error)) return;
          fail(error instanceof AttemptFailure ? error.failure : { kind: 'network' });
        },
      )
      .finally(() => {
        held.realtime?.close();
        held.realtime = null;
      });
    return () => {
      controller.abort();
      releaseAttempt(held);
    };
    // The flow facts are read when a run starts; a run is restarted only through `run`.
  }, [state.phase, state.ready, state.failure, stream, state.run]);

  const actions: FaceActions = {
    continue: () => dispatch({ type: 'continue' }),
    cancel: () => dispatch({ type: 'cancel' }),
    dismissCancel: () => dispatch({ type: 'dismissCancel' }),
    confirmCancel: () => hostRef.current.end('cancelConfirmed'),
    dialogPrimary: () => {
      const current = stateRef.current;
      // Back to the link's landing page: the dialog stays until the page changes.
      if (current.failure && dialogAction(current.failure, current.attempts, current.rules) === 'restartLink') {
        hostRef.current.end('restartLink');
        return;
      }
      dispatch({ type: 'dialogPrimary' });
    },
    abandon: () => hostRef.current.end('abandon'),
    acknowledgeFailure: () => hostRef.current.end('acknowledgeFailure'),
    cameraReady: (frame) => dispatch({ type: 'cameraReady', frame }),
    cameraFailed: (error) => onCameraFailure(classifyCameraError(error), error),
  };
  return { step, path, state, stream, videoRef, actions };
}
