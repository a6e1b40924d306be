import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';
import { useLocation } from '../../navigation/router';
import { sendAudit } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { delays } from '../../journey/journey';
import { useJourney } from '../../journey/run';
import { openDocumentCamera } from '../../media/camera';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import { analysisImage, canvasToBlob, cropCanvas, grabFrame, idImage } from '../../media/capture';
import { documentMask, scaleRect, type DocumentFormat, type Rect } from '../../media/geometry';
import { currentPlatform, isMobileDevice } from '../../media/platform';
import { assessQuality } from '../../media/quality';
import { useCamera } from '../../media/useCamera';
import { readIntents, readOcr, storeBackRead, storeFrontRead, writeIntents, type IdSide } from '../../session/idCapture';
import { sessionState } from '../../session/storage';
import { AnalysisChecklist } from '../../ui/AnalysisChecklist';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { CaptureTips } from '../../ui/CaptureTips';
import { CaptureVerify } from '../../ui/CaptureVerify';
import { captureCopy } from '../../ui/captureCopy';
import { CropAdjust } from '../../ui/CropAdjust';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { LoadingState } from '../../ui/LoadingState';
import { ProcessFailed } from '../../ui/ProcessFailed';
import { Screen } from '../../ui/Screen';
import { captureReducer, checklist, decideRead, decideReadError, initialCaptureState, intentsOf, qualityOverrideAfter, uploadPercent, type CaptureState } from './capture-machine';
import { readIdSide } from './ocr';
import '../../ui/capture.css';
import { wait } from '../../media/wait';

const copy = captureCopy;

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

/** The desktop tip ('hold the ID with two fingers') shows once per page load. */
let holdTipShown = false;

interface Capture {
  frame: HTMLCanvasElement;
  mask: Rect;
  url: string;
}

interface Cropped {
  blob: Blob;
  url: string;
}

const ignore = (): void => undefined;

function audit(tipo: string, dato: unknown): void {
  sendAudit('identificacion', tipo, typeof dato === 'string' ? dato : JSON.stringify(dato)).catch(ignore);
}

export function Component() {
  const location = useLocation();
  const journey = useJourney('identificacion');
  const journeyRef = useRef(journey);
  journeyRef.current = journey;
  const [route] = useState(() => routeStateOf(location.state));
  const storage = sessionState();
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

  const [capture, setCapture] = useState<Capture | null>(null);
  const [cropped, setCropped] = useState<Cropped | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [frontJustRead, setFrontJustRead] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const lifetime = useRef<AbortController>(new AbortController());
  const format: DocumentFormat = state.passport ? 'id3' : 'id1';

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

  // What each outcome leads to (once per phase change).
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
      const frame = grabFrame(video);
      const mask = documentMask({ width: frame.width, height: frame.height }, format);
      const { image, scale } = analysisImage(frame);
      const report = assessQuality(image, scaleRect(mask, scale));
      const blob = await canvasToBlob(frame, idImage.type, idImage.captureQuality);
      if (signal.aborted) return;
      setCapture({ frame, mask, url: URL.createObjectURL(blob) });
      if (!report.ok) {
        const m = report.metrics;
        audit('Calidad', {
          lado: stateRef.current.side,
          problemas: report.issues,
          nitidez: Math.round(m.laplacianVariance),
          reflejo: Number(m.glareClusterShare.toFixed(3)),
          bordes: m.edgesFound,
          contraste: Math.round(m.contrast),
        });
      }
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
      const ocrData = await readIdSide({
        side,
        image: blob,
        signal: lifetime.current.signal,
        onProgress: ({ loaded, total }) => dispatch({ type: 'progress', loaded, total }),
        onUploaded: () => dispatch({ type: 'uploaded' }),
      });
      const decision = decideRead(stateRef.current, ocrData);
      if (decision.kind === 'toBack' || (decision.kind === 'finished' && decision.side === 'front')) {
        storeFrontRead(storage, ocrData, decision.dataOk);
      } else if (decision.kind === 'finished') {
        storeBackRead(storage, ocrData);
      }
      dispatch({ type: 'read', decision });
    } catch (error) {
      if (isAbortError(error)) return;
      const status = error instanceof ApiError ? error.status : 500;
      const messageClient = error instanceof ApiError ? error.messageClient : undefined;
      dispatch({ type: 'readError', decision: decideReadError(side, status, messageClient) });
    }
  }

  const retake = () => {
    setCropped(null);
    dispatch({ type: 'retake' });
  };
  const cancel = () => journey({ type: 'cancel' });

  switch (state.phase) {
    case 'intro':
      return <Intro onContinue={() => dispatch({ type: 'continue' })} onCancel={cancel} />;

    case 'camera':
    case 'capturing':
      return (
        <CameraScreen
          key={`camera-${state.side}`}
          state={state}
          stream={stream}
          videoRef={videoRef}
          format={format}
          frontJustRead={frontJustRead}
          onCapture={() => void takePicture()}
          onCancel={cancel}
          onFailure={(error) => onCameraFailure(classifyCameraError(error), error)}
        />
      );

    case 'retake':
      return <RetakeScreen state={state} imageUrl={capture?.url ?? null} onRetake={retake} onUseAnyway={() => dispatch({ type: 'override' })} />;

    case 'adjust':
      return capture ? (
        <CropAdjust
          key={capture.url}
          step="identificacion"
          image={{ url: capture.url, width: capture.frame.width, height: capture.frame.height }}
          initialCrop={capture.mask}
          previewScale={idImage.previewScale}
          busy={adjusting}
          onDone={(rect) => void adjusted(rect)}
          onRetake={retake}
        />
      ) : (
        <Busy />
      );

    case 'verify':
      return cropped ? (
        <CaptureVerify
          step="identificacion"
          imageUrl={cropped.url}
          imageAlt={copy.verify.imageAlt}
          onRetake={retake}
          onSave={() => {
            dispatch({ type: 'save' });
            void upload(cropped.blob);
          }}
        />
      ) : (
        <Busy />
      );

    case 'uploading':
    case 'sideDone':
    case 'finished':
      return <AnalysisScreen state={state} imageUrl={cropped?.url ?? null} />;

    case 'networkError':
      return (
        <Screen
          key="network"
          title={copy.network.title}
          step="identificacion"
          actions={
            <>
              <button
                type="button"
                className="btn btn--primary"
                disabled={!cropped}
                onClick={() => {
                  if (!cropped) return;
                  dispatch({ type: 'resend' });
                  void upload(cropped.blob);
                }}
              >
                {copy.network.resend}
              </button>
              <button type="button" className="btn btn--secondary" onClick={retake}>
                {copy.network.retake}
              </button>
            </>
          }
        >
          <p className="notice__message" role="alert">
            {state.message}
          </p>
        </Screen>
      );

    case 'exhausted':
      return <ProcessFailed step="identificacion" message={state.message ?? copy.failed.message} onAcknowledge={() => journey({ type: 'acknowledgeFailure' })} />;

    case 'cameraError':
      return <CameraErrorNotice kind={state.cameraError ?? 'other'} step="identificacion" />;

    case 'failed':
      return <Busy />;
  }
}

function Busy() {
  return (
    <main className="screen screen--pending" data-step="identificacion" aria-busy="true">
      <LoadingState />
    </main>
  );
}

function IdIllustration() {
  return (
    <svg className="capture-illustration" viewBox="0 0 280 170" aria-hidden="true" focusable="false">
      <rect width="280" height="170" rx="14" fill="#1d1f24" />
      <rect x="40" y="22" width="200" height="126" rx="8" fill="#f3f0ea" />
      <rect x="56" y="44" width="52" height="66" rx="4" fill="#b9c3cf" />
      <rect x="120" y="48" width="98" height="8" rx="4" fill="#8d96a3" />
      <rect x="120" y="66" width="80" height="8" rx="4" fill="#8d96a3" />
      <rect x="120" y="84" width="90" height="8" rx="4" fill="#8d96a3" />
      <rect x="56" y="122" width="162" height="8" rx="4" fill="#8d96a3" />
      <path d="M30 40V16h24M226 16h24v24M250 130v24h-24M54 154H30v-24" fill="none" stroke="var(--color-accent)" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}

function Intro({ onContinue, onCancel }: { onContinue: () => void; onCancel: () => void }) {
  return (
    <Screen
      key="intro"
      title={copy.intro.title}
      step="identificacion"
      className="capture-intro"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onContinue}>
            {copy.common.continue}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {copy.common.cancel}
          </button>
        </>
      }
    >
      <IdIllustration />
      <ul className="capture-tips">
        <li>
          <Icon name="id" />
          {copy.intro.surface}
        </li>
        <li>
          <Icon name="focus" />
          {copy.intro.frame}
        </li>
        <li>
          <Icon name="sun" />
          {copy.intro.glare}
        </li>
      </ul>
    </Screen>
  );
}

interface CameraScreenProps {
  state: CaptureState;
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  format: DocumentFormat;
  frontJustRead: boolean;
  onCapture: () => void;
  onCancel: () => void;
  onFailure: (error: unknown) => void;
}

function CameraScreen({ state, stream, videoRef, format, frontJustRead, onCapture, onCancel, onFailure }: CameraScreenProps) {
  const [ready, setReady] = useState(false);
  const desktop = useMemo(() => !isMobileDevice(currentPlatform()), []);
  const [holdOpen, setHoldOpen] = useState(() => desktop && !holdTipShown);
  const busy = state.phase === 'capturing';
  const back = state.side === 'back';
  const title = state.passport ? copy.camera.titlePassport : back ? copy.camera.titleBack : copy.camera.titleFront;
  const hint = state.passport ? copy.camera.hintPassport : back ? copy.camera.hintBack : copy.camera.hintFront;
  const closeHold = () => {
    holdTipShown = true;
    setHoldOpen(false);
  };

  return (
    <Screen
      title={title}
      step="identificacion"
      className="capture"
      actions={
        <>
          <button type="button" className="btn btn--primary" data-side={state.side} disabled={!ready || busy || holdOpen} onClick={onCapture}>
            {busy ? copy.camera.processing : back ? copy.camera.captureBack : copy.camera.captureFront}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={onCancel}>
            {copy.common.cancel}
          </button>
        </>
      }
    >
      <CameraStage stream={stream} videoRef={videoRef} label={copy.camera.videoLabel} guide={format} onReady={() => setReady(true)} onFailure={onFailure} />
      <p className="capture-hint">{hint}</p>
      <p role="status" className="capture-note">
        {busy ? copy.camera.holdingStill : frontJustRead && back ? copy.camera.frontRead : null}
      </p>
      <Dialog
        open={holdOpen}
        title={copy.hold.title}
        onClose={closeHold}
        actions={
          <button type="button" className="btn btn--primary" data-autofocus onClick={closeHold}>
            {copy.hold.start}
          </button>
        }
      >
        <p>{copy.hold.text}</p>
      </Dialog>
    </Screen>
  );
}

function RetakeScreen({ state, imageUrl, onRetake, onUseAnyway }: { state: CaptureState; imageUrl: string | null; onRetake: () => void; onUseAnyway: () => void }) {
  const issue = state.quality.issues[0] ?? 'document';
  const canOverride = state.quality.rejections >= qualityOverrideAfter;
  return (
    <Screen
      key="retake"
      title={copy.quality.title}
      step="identificacion"
      className="capture-retake"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onRetake}>
            {copy.quality.retake}
          </button>
          {canOverride ? (
            <button type="button" className="btn btn--secondary" onClick={onUseAnyway}>
              {copy.quality.useAnyway}
            </button>
          ) : null}
        </>
      }
    >
      <p className="notice__message" role="alert" data-issue={issue}>
        {copy.quality[issue]}
      </p>
      <p>{copy.quality.notSent}</p>
      {canOverride ? <p>{copy.quality.useAnywayHint}</p> : null}
      {imageUrl ? <img className="capture-retake__image" src={imageUrl} alt={copy.quality.captureAlt} /> : null}
      <CaptureTips />
    </Screen>
  );
}

function AnalysisScreen({ state, imageUrl }: { state: CaptureState; imageUrl: string | null }) {
  const items = checklist(state.side, state.upload, state.documentFoundOnDevice);
  const status = state.upload.stage === 'received' ? copy.analysis.read : state.upload.stage === 'processing' ? copy.analysis.sent : copy.analysis.sending(null);
  return (
    <Screen key={`analysis-${state.side}`} title={state.side === 'back' ? copy.analysis.titleBack : copy.analysis.titleFront} step="identificacion" className="capture-analysis">
      {imageUrl ? <img className="analysis__thumb" src={imageUrl} alt={copy.verify.imageAlt} /> : null}
      <AnalysisChecklist items={items} percent={uploadPercent(state.upload)} status={status} />
    </Screen>
  );
}
