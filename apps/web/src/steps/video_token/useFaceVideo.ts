import { useCallback, useEffect, useMemo, useReducer, useRef, type RefObject } from 'react';
import { paramInt, paramValue } from '@kyc/contracts/params';
import { sendAudit } from '../../api/calls';
import { isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { openFaceCamera } from '../../media/camera';
import { cameraInfoField, describeCamera } from '../../media/camera-info';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import type { Size } from '../../media/geometry';
import { currentPlatform, isIOS } from '../../media/platform';
import { recorderSupported } from '../../media/recorder';
import { useCamera } from '../../media/useCamera';
import { useGrantorParams } from '../../session/grantor';
import { readSession } from '../../session/session';
import { sessionState } from '../../session/storage';
import { AttemptFailure, releaseAttempt, runAttempt, type AttemptResources } from './face-attempt';
import { faceReducer, initialFaceState, type FaceState } from './face-machine';
import type { FaceFlow } from './forms';
import { attemptRules, describeFailure, dialogAction, type FaceFailure } from './outcomes';
import { videoPathOf, type VideoPath } from './schedule';
import { isPassportCapture, readVideoAttempts, storeCodes, storeFaceMatch, storeNoMatch, writeVideoAttempts } from './state';

/** What the face-video screen renders and the actions its buttons call. */
export interface FaceVideoModel {
  step: 'video_token' | 'pdf_video_token';
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

/**
 * The face video's I/O (docs/flow.md §2 "Face video token", §4, §8, §9) around the pure `faceReducer`: the camera,
 * one attempt per (run, camera ready) — a retry bumps `run`, leaving the camera aborts it —, the session storage
 * of codes, attempts and the verdict, the audit of failures, and the journey events of the step's ends.
 */
export function useFaceVideo(flow: FaceFlow): FaceVideoModel {
  const step = flow === 'link' ? 'pdf_video_token' : 'video_token';
  const journey = useJourney(step);
  const params = useGrantorParams();
  const path = videoPathOf(paramValue(params, 'MODO_VIDEO_TOKEN'));
  const platform = useMemo(() => currentPlatform(), []);
  // Spec §9: the link variant allows 5 video attempts, 3 of them retried in place (the server counts them apart).
  const rules = attemptRules(flow, paramInt(params, 'INTENTOS_VIDEO_TOKEN'));
  const [state, dispatch] = useReducer(faceReducer, undefined, () => initialFaceState({ rules, attempts: readVideoAttempts(sessionState(), rules.max, Date.now()) }));
  const initialAttempts = useRef(state.attempts);
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (path === 'grabacion' && !recorderSupported()) journey({ type: 'recorderUnsupported' });
  }, [path, journey]);

  const onCameraFailure = useCallback(
    (kind: CameraErrorKind, error: unknown) => {
      sendAudit(step, 'Error', cameraErrorDatum(kind, error)).catch(() => undefined);
      dispatch({ type: 'cameraFailed', kind });
    },
    [step],
  );
  const stream = useCamera(state.phase === 'camera', openFaceCamera, onCameraFailure);
  useEffect(() => {
    if (!stream) dispatch({ type: 'cameraClosed' });
  }, [stream]);

  // intentsData.video_token mirrors the attempts once a failure changed them.
  useEffect(() => {
    if (state.attempts !== initialAttempts.current) writeVideoAttempts(sessionState(), state.attempts);
  }, [state.attempts]);

  // The step's ends go to the journey once.
  useEffect(() => {
    if (state.outcome === 'matched') journey({ type: 'matched' });
    if (state.outcome === 'exhausted') journey({ type: 'attemptsExhausted' });
  }, [state.outcome, journey]);

  const fail = useCallback(
    (what: FaceFailure) => {
      const view = describeFailure(what);
      if (view.restart) storeNoMatch(sessionState());
      const status = 'status' in what ? what.status : null;
      sendAudit(step, 'Error', JSON.stringify({ motivo: what.kind, status, mensaje: view.message })).catch(() => undefined);
      dispatch({ type: 'failed', failure: view });
    },
    [step],
  );

  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    const video = videoRef.current;
    if (state.phase !== 'camera' || !state.ready || state.failure || !stream || !video) return;
    const controller = new AbortController();
    const storage = sessionState();
    const held: AttemptResources = { recording: null, realtime: null, realtimeSetup: null };
    const context = {
      flow,
      step,
      path,
      platform,
      ios: isIOS(platform),
      passport: isPassportCapture(storage),
      // Read when a run starts; a run is restarted only through `run`.
      retry: stateRef.current.retry,
      session: readSession(),
      video,
      stream,
      camera: describeCamera(stream.getVideoTracks()[0]).then(cameraInfoField, () => undefined),
      signal: controller.signal,
      dispatch,
      onCodes: (codes: Parameters<typeof storeCodes>[1]) => storeCodes(storage, codes),
    } as const;
    runAttempt(context, held)
      .then(
        (result) => {
          if (controller.signal.aborted) return;
          storeFaceMatch(storage, result);
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
    confirmCancel: () => journey({ type: 'cancelConfirmed', ruta: step }),
    dialogPrimary: () => {
      const current = stateRef.current;
      // Back to the link's landing page: the dialog stays until the page changes.
      if (current.failure && dialogAction(current.failure, current.attempts, current.rules) === 'restartLink') {
        journey({ type: 'restartLink' });
        return;
      }
      dispatch({ type: 'dialogPrimary' });
    },
    abandon: () => journey({ type: 'abandon' }),
    acknowledgeFailure: () => journey({ type: 'acknowledgeFailure' }),
    cameraReady: (frame) => dispatch({ type: 'cameraReady', frame }),
    cameraFailed: (error) => onCameraFailure(classifyCameraError(error), error),
  };
  return { step, path, state, stream, videoRef, actions };
}
