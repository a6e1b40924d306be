import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation } from '../../navigation/router';
import { sendAudit } from '../../api/calls';
import { isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import { canvasToBlob, grabFrame } from '../../media/capture';
import { useCamera } from '../../media/useCamera';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { CancelDialog } from '../../ui/CancelDialog';
import { LoadingState } from '../../ui/LoadingState';
import { ProcessFailed } from '../../ui/ProcessFailed';
import { NetworkRetry } from '../../ui/NetworkRetry';
import { Screen } from '../../ui/Screen';
import { texts } from '../../i18n/es-MX/comprobante';
import { openProofCamera } from './camera';
import { proofImage, sendProof } from './proof';
import { Icon } from '../../ui/icons';
import '../../ui/capture.css';
import './comprobante.css';
import { wait } from '../../media/wait';

type Phase =
  | { kind: 'camera'; capturing: boolean }
  | { kind: 'preview' }
  | { kind: 'sending' }
  | { kind: 'unreadable'; attemptsLeft: number }
  | { kind: 'network' }
  | { kind: 'exhausted' }
  | { kind: 'cameraError'; error: CameraErrorKind };

interface Shot {
  blob: Blob;
  url: string;
}

function rutaOf(state: unknown): string | null {
  const ruta = typeof state === 'object' && state !== null ? (state as { ruta?: unknown }).ruta : undefined;
  return typeof ruta === 'string' ? ruta : null;
}

const ignore = (): void => undefined;

/**
 * /comprobante (docs/flow.md §2 Proof of address): back camera with the page guide, CAPTURAR COMPROBANTE, a preview to
 * confirm or retake, then the upload; the server reads the bill and the address form opens pre-filled. The
 * rotate-to-portrait notice is the app shell's.
 */
export function Component() {
  const journey = useJourney('comprobante');
  const location = useLocation();
  const [ruta] = useState(() => rutaOf(location.state));
  const [phase, setPhase] = useState<Phase>({ kind: 'camera', capturing: false });
  const [shot, setShot] = useState<Shot | null>(null);
  const [ready, setReady] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const lifetime = useRef(new AbortController());

  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
  }, []);
  useEffect(() => () => (shot ? URL.revokeObjectURL(shot.url) : undefined), [shot]);

  const onCameraFailure = useCallback((kind: CameraErrorKind, error: unknown) => {
    sendAudit('comprobante', 'Error', cameraErrorDatum(kind, error)).catch(ignore);
    setPhase({ kind: 'cameraError', error: kind });
  }, []);
  const stream = useCamera(phase.kind === 'camera' || phase.kind === 'preview', openProofCamera, onCameraFailure);

  async function capture(): Promise<void> {
    if (phase.kind !== 'camera' || phase.capturing) return;
    setPhase({ kind: 'camera', capturing: true });
    const signal = lifetime.current.signal;
    try {
      await wait(proofImage.captureDelayMs, signal);
      const video = videoRef.current;
      if (!video) throw new Error('the camera view is gone');
      const blob = await canvasToBlob(grabFrame(video), proofImage.type, proofImage.quality);
      if (signal.aborted) return;
      setShot({ blob, url: URL.createObjectURL(blob) });
      setPhase({ kind: 'preview' });
    } catch (error) {
      if (!isAbortError(error)) onCameraFailure('other', error);
    }
  }

  async function send(): Promise<void> {
    if (!shot) return;
    setPhase({ kind: 'sending' });
    try {
      const outcome = await sendProof(shot.blob, lifetime.current.signal);
      switch (outcome.kind) {
        case 'read':
          journey({ type: 'read', lectura: outcome.lectura });
          break;
        case 'unreadable':
          setPhase({ kind: 'unreadable', attemptsLeft: outcome.attemptsLeft });
          break;
        case 'exhausted':
          setPhase({ kind: 'exhausted' });
          journey({ type: 'attemptsExhausted' });
          break;
        case 'network':
          setPhase({ kind: 'network' });
          break;
      }
    } catch (error) {
      if (!isAbortError(error)) setPhase({ kind: 'network' });
    }
  }

  const retake = () => {
    setShot(null);
    setReady(false);
    setPhase({ kind: 'camera', capturing: false });
  };

  switch (phase.kind) {
    case 'camera':
      return (
        <ProofCamera
          busy={phase.capturing}
          ready={ready}
          stream={stream}
          videoRef={videoRef}
          onReady={() => setReady(true)}
          onFailure={(error) => onCameraFailure(classifyCameraError(error), error)}
          onCapture={() => void capture()}
          cancelDialog={<CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed', ruta })} />}
          onCancel={() => setCancelOpen(true)}
        />
      );
    case 'preview':
      return <ProofPreview imageUrl={shot?.url ?? null} onConfirm={() => void send()} onRetake={retake} />;
    case 'sending':
      return (
        <main className="screen screen--pending" data-step="comprobante" aria-busy="true">
          <LoadingState label={texts.sending} />
        </main>
      );
    case 'unreadable':
      return <ProofUnreadable attemptsLeft={phase.attemptsLeft} onRetake={retake} />;
    case 'network':
      return <NetworkRetry step="comprobante" canResend={shot !== null} onResend={() => void send()} onRetake={retake} />;
    case 'exhausted':
      return <ProcessFailed step="comprobante" onAcknowledge={() => journey({ type: 'acknowledge' })} />;
    case 'cameraError':
      return <CameraErrorNotice kind={phase.error} step="comprobante" />;
  }
}

interface ProofCameraProps {
  busy: boolean;
  ready: boolean;
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  onReady: () => void;
  onFailure: (error: unknown) => void;
  onCapture: () => void;
  onCancel: () => void;
  cancelDialog: ReactNode;
}

/** The back camera with the page guide and CAPTURAR COMPROBANTE. */
function ProofCamera({ busy, ready, stream, videoRef, onReady, onFailure, onCapture, onCancel, cancelDialog }: ProofCameraProps) {
  return (
    <Screen
      title={texts.camera.title}
      step="comprobante"
      className="capture proof-capture"
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={!ready || busy} onClick={onCapture}>
            {busy ? texts.camera.processing : texts.camera.capture}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={onCancel}>
            {texts.camera.cancel}
          </button>
        </>
      }
    >
      <CameraStage stream={stream} videoRef={videoRef} label={texts.camera.videoLabel} guide="page" onReady={onReady} onFailure={onFailure} />
      <p className="capture-hint">{texts.camera.hint}</p>
      <p className="capture-hint capture-hint--glare">
        <Icon name="sun" />
        {texts.camera.glare}
      </p>
      <p role="status" className="capture-note">
        {busy ? texts.camera.holdingStill : null}
      </p>
      {cancelDialog}
    </Screen>
  );
}

/** The shot to confirm or retake. */
function ProofPreview({ imageUrl, onConfirm, onRetake }: { imageUrl: string | null; onConfirm: () => void; onRetake: () => void }) {
  return (
    <Screen
      key="preview"
      title={texts.preview.title}
      step="comprobante"
      className="capture-verify"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onConfirm}>
            {texts.preview.confirm}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onRetake}>
            {texts.preview.retake}
          </button>
        </>
      }
    >
      <p>{texts.preview.intro}</p>
      {imageUrl ? <img className="capture-preview" src={imageUrl} alt={texts.preview.imageAlt} /> : null}
    </Screen>
  );
}

/** The server could not read the bill: the attempts left and a retake. */
function ProofUnreadable({ attemptsLeft, onRetake }: { attemptsLeft: number; onRetake: () => void }) {
  return (
    <Screen
      key="unreadable"
      title={texts.unreadable.title}
      step="comprobante"
      actions={
        <button type="button" className="btn btn--primary" onClick={onRetake}>
          {texts.unreadable.retry}
        </button>
      }
    >
      <p className="notice__message" role="alert" data-proof="unreadable">
        {texts.unreadable.message}
      </p>
      <p>{texts.unreadable.attemptsLeft(attemptsLeft)}</p>
    </Screen>
  );
}
