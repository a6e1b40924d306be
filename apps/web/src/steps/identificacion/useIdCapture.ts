import { useCallback, useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { sendAudit } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { delays } from '../../journey/journey';
import { useJourney } from '../../journey/run';
import { openDocumentCamera } from '../../media/camera';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import { analysisImage, canvasToBlob, cropCanvas, grabFrame, idImage } from '../../media/capture';
import { documentMask, scaleRect, type DocumentFormat, type Rect } from '../../media/geometry';
import { assessQuality, type QualityReport } from '../../media/quality';
import { useCamera } from '../../media/useCamera';
import { wait } from '../../media/wait';
import { useLocation } from '../../navigation/router';
import { readIntents, readOcr, storeBackRead, storeFrontRead, writeIntents, type IdSide } from '../../session/idCapture';
import { sessionState, type StateStorage } from '../../session/storage';
import { captureReducer, decideRead, decideReadError, initialCaptureState, intentsOf, type CaptureEvent, type CaptureState, type ReadDecision } from './capture-machine';
import { readIdSide } from './ocr';

interface RouteState {
  passport: boolean;
  side: IdSide;
  /** Coming back from /error_pantalla: straight to the camera. */
  retry: boolean;
}

function routeStateOf(state: unknown): RouteState {
  const value = (typeof state === 'object' && state !== null ? state : {}) as Record<string, unknown>;
  return { passport: value.passport === true, side: value.side === 'back' ? 'back' : 'front', retry: value.retry === true };
}

/** The frame as captured, its document guide, and its preview. */
export interface Capture {
  frame: HTMLCanvasElement;
  mask: Rect;
  url: string;
}

/** The cropped image that is sent, and its preview. */
export interface Cropped {
  blob: Blob;
  url: string;
}

const ignore = (): void => undefined;

function audit(tipo: string, dato: unknown): void {
  sendAudit('identificacion', tipo, typeof dato === 'string' ? dato : JSON.stringify(dato)).catch(ignore);
}

function auditQuality(side: IdSide, report: QualityReport): void {
  const m = report.metrics;
  audit('Calidad', {
    lado: side,
    problemas: report.issues,
    nitidez: Math.round(m.laplacianVariance),
    reflejo: Number(m.glareClusterShare.toFixed(3)),
    bordes: m.edgesFound,
    contraste: Math.round(m.contrast),
  });
}

/** The frame under the guide, its on-device quality check, and the image to crop from. */
async function grabAndCheck(video: HTMLVideoElement, format: DocumentFormat): Promise<{ frame: HTMLCanvasElement; mask: Rect; report: QualityReport; blob: Blob }> {
  const frame = grabFrame(video);
  const mask = documentMask({ width: frame.width, height: frame.height }, format);
  const { image, scale } = analysisImage(frame);
  const report = assessQuality(image, scaleRect(mask, scale));
  const blob = await canvasToBlob(frame, idImage.type, idImage.captureQuality);
  return { frame, mask, report, blob };
}

/** Sends the side, decides what the read means (as the state is when it arrives) and stores an accepted read. */
async function readAndStore(storage: StateStorage, stateRef: RefObject<CaptureState>, blob: Blob, signal: AbortSignal, dispatch: (event: CaptureEvent) => void): Promise<ReadDecision> {
  const ocrData = await readIdSide({
    side: stateRef.current.side,
    image: blob,
    signal,
    onProgress: ({ loaded, total }) => dispatch({ type: 'progress', loaded, total }),
    onUploaded: () => dispatch({ type: 'uploaded' }),
  });
  const decision = decideRead(stateRef.current, ocrData);
  if (decision.kind === 'toBack' || (decision.kind === 'finished' && decision.side === 'front')) {
    storeFrontRead(storage, ocrData, decision.dataOk);
  } else if (decision.kind === 'finished') {
    storeBackRead(storage, ocrData);
  }
  return decision;
}

/** What the ID capture screen renders and the actions its buttons call. */
export interface IdCaptureModel {
  state: CaptureState;
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  format: DocumentFormat;
  capture: Capture | null;
  cropped: Cropped | null;
  /** The crop is being made (the adjust screen is busy). */
  adjusting: boolean;
  /** The front was just read: the back's camera says so. */
  frontJustRead: boolean;
  actions: IdCaptureActions;
}

export interface IdCaptureActions {
  continue: () => void;
  cancel: () => void;
  capture: () => void;
  retake: () => void;
  useAnyway: () => void;
  adjusted: (rect: Rect) => void;
  save: () => void;
  resend: () => void;
  acknowledgeFailure: () => void;
  cameraFailed: (error: unknown) => void;
}

/** The capture machine's state, started from the route state and the stored reads and attempts. */
function useCaptureState(storage: StateStorage) {
  const location = useLocation();
  const [route] = useState(() => routeStateOf(location.state));
  const [state, dispatch] = useReducer(captureReducer, route, (start) =>
    initialCaptureState({
      passport: start.passport,
      // The back is resumed only when the front read is stored (after a failed back read).
      side: start.side === 'back' && readOcr(storage, 'ocrFront') !== null ? 'back' : 'front',
      skipIntro: start.retry,
      intents: readIntents(storage),
    }),
  );
  const stateRef = useRef<CaptureState>(state);
  stateRef.current = state;
  return { state, dispatch, stateRef };
}

/** What each outcome leads to (once per phase change): the back after a pause, or the journey's next step. */
function useOutcomes(state: CaptureState, stateRef: RefObject<CaptureState>, dispatch: (event: CaptureEvent) => void, setFrontJustRead: (value: boolean) => void) {
  const journey = useJourney('identificacion');
  const journeyRef = useRef(journey);
  journeyRef.current = journey;
  useEffect(() => {
    const current = stateRef.current;
    const journey = journeyRef.current;
    switch (current.phase) {
      case 'sideDone': {
        setFrontJustRead(true);
        const timer = window.setTimeout(() => dispatch({ type: 'nextSide' }), delays.afterBackRead);
        return () => window.clearTimeout(timer);
      }
      case 'finished':
        journey(current.side === 'back' ? { type: 'backRead' } : { type: 'frontRead', passport: true });
        break;
      case 'failed':
        if (current.reason) audit('Error', { lado: current.side, motivo: current.reason });
        journey({ type: 'readFailed', side: current.side, passport: current.passport, message: current.message ?? '' });
        break;
      case 'exhausted':
        journey({ type: 'attemptsExhausted' });
        break;
      default:
        break;
    }
    return undefined;
  }, [state.phase]);
  return journey;
}

/**
 * The ID capture's I/O (docs/flow.md §2 "ID capture", §4) around the pure `captureReducer`: the camera (held while
 * the person frames, checks and crops), the frame grab and on-device check, the crop, the upload and read, the
 * session storage of reads and attempts, the audit, and the journey events.
 */
export function useIdCapture(): IdCaptureModel {
  const storage = sessionState();
  const { state, dispatch, stateRef } = useCaptureState(storage);
  const [capture, setCapture] = useState<Capture | null>(null);
  const [cropped, setCropped] = useState<Cropped | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [frontJustRead, setFrontJustRead] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const lifetime = useRef<AbortController>(new AbortController());
  const format: DocumentFormat = state.passport ? 'id3' : 'id1';
  const journey = useOutcomes(state, stateRef, dispatch, setFrontJustRead);

  // Aborts the capture delay and any upload when the screen goes away.
  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
  }, []);

  // Object URLs of the captures are released when replaced or on leaving.
  useEffect(() => () => (capture ? URL.revokeObjectURL(capture.url) : undefined), [capture]);
  useEffect(() => () => (cropped ? URL.revokeObjectURL(cropped.url) : undefined), [cropped]);

  const onCameraFailure = useCallback((kind: CameraErrorKind, error: unknown) => {
    audit('Error', cameraErrorDatum(kind, error));
    dispatch({ type: 'cameraFailed', kind });
  }, []);
  // The camera is held while the user frames, checks and crops a capture (a retake is then instant), and
  // released while the image is read: the light goes off, and the back side starts from a fresh camera.
  const cameraWanted = ['camera', 'capturing', 'retake', 'adjust', 'verify'].includes(state.phase);
  const stream = useCamera(cameraWanted, openDocumentCamera, onCameraFailure);

  // intentsData: the display mirror of the attempts and the used tolerance.
  useEffect(() => {
    writeIntents(storage, intentsOf(stateRef.current));
  }, [storage, state.attempts.front, state.attempts.back, state.frontTolerated]);

  async function takePicture(): Promise<void> {
    if (stateRef.current.phase !== 'camera') return;
    setFrontJustRead(false);
    dispatch({ type: 'capture' });
    const signal = lifetime.current.signal;
    try {
      // Spec §9 capture delay: the focus settles after the tap.
      await wait(idImage.captureDelayMs, signal);
      const video = videoRef.current;
      if (!video) throw new Error('the camera view is gone');
      const { report, blob, ...grabbed } = await grabAndCheck(video, format);
      if (signal.aborted) return;
      setCapture({ ...grabbed, url: URL.createObjectURL(blob) });
      if (!report.ok) auditQuality(stateRef.current.side, report);
      dispatch({ type: 'checked', ok: report.ok, issues: report.issues });
    } catch (error) {
      if (isAbortError(error)) return;
      onCameraFailure('other', error);
    }
  }

  async function adjusted(rect: Rect): Promise<void> {
    if (!capture) return;
    setAdjusting(true);
    try {
      const blob = await canvasToBlob(cropCanvas(capture.frame, rect, idImage.maxUploadSide), idImage.type, idImage.cropQuality);
      setCropped({ blob, url: URL.createObjectURL(blob) });
      dispatch({ type: 'adjusted' });
    } catch (error) {
      onCameraFailure('other', error);
    } finally {
      setAdjusting(false);
    }
  }

  async function upload(blob: Blob): Promise<void> {
    const side = stateRef.current.side;
    try {
      dispatch({ type: 'read', decision: await readAndStore(storage, stateRef, blob, lifetime.current.signal, dispatch) });
    } catch (error) {
      if (isAbortError(error)) return;
      const status = error instanceof ApiError ? error.status : 500;
      const messageClient = error instanceof ApiError ? error.messageClient : undefined;
      dispatch({ type: 'readError', decision: decideReadError(side, status, messageClient) });
    }
  }

  const actions: IdCaptureActions = {
    continue: () => dispatch({ type: 'continue' }),
    cancel: () => journey({ type: 'cancel' }),
    capture: () => void takePicture(),
    retake: () => {
      setCropped(null);
      dispatch({ type: 'retake' });
    },
    useAnyway: () => dispatch({ type: 'override' }),
    adjusted: (rect) => void adjusted(rect),
    save: () => {
      if (!cropped) return;
      dispatch({ type: 'save' });
      void upload(cropped.blob);
    },
    resend: () => {
      if (!cropped) return;
      dispatch({ type: 'resend' });
      void upload(cropped.blob);
    },
    acknowledgeFailure: () => journey({ type: 'acknowledgeFailure' }),
    cameraFailed: (error) => onCameraFailure(classifyCameraError(error), error),
  };
  return { state, stream, videoRef, format, capture, cropped, adjusting, frontJustRead, actions };
}
