import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { api, sendAudit } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { openDocumentCamera } from '../../media/camera';
import { cameraErrorDatum, classifyCameraError, type CameraErrorKind } from '../../media/camera-select';
import { currentPlatform, isIOS, isMobileDevice, originOS } from '../../media/platform';
import { recorderSupported, startRecording, type Recording } from '../../media/recorder';
import { useCamera } from '../../media/useCamera';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { texts as capture } from '../../i18n/es-MX/capture';
import { texts } from '../../i18n/es-MX/holograma';
import { Screen } from '../../ui/Screen';
import { calibrationForm, hologramLimits } from './calibration';
import '../../ui/capture.css';

type Phase = 'instructions' | 'camera' | 'recording' | 'sending' | 'unsupported' | 'cameraError';

const ignore = (): void => undefined;

/**
 * /holograma (docs/flow.md §2, §4): calibration instructions, then the camera; CAPTURAR Y CALIBRAR records the ID
 * while the user tilts it, stops at 6 s and uploads to id_calibrate; a hard stop at 60 s gives up and goes on
 * to the capture. On desktop the instructions are skipped and the (user-facing) preview is mirrored.
 */
export function Component() {
  const journey = useJourney('holograma');
  const platform = useMemo(() => currentPlatform(), []);
  const desktop = !isMobileDevice(platform);
  const [phase, setPhase] = useState<Phase>(() => (!recorderSupported() ? 'unsupported' : desktop ? 'camera' : 'instructions'));
  const [cameraError, setCameraError] = useState<CameraErrorKind>('other');
  const [message, setMessage] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const run = useRef<{ recording: Recording | null; controller: AbortController; timers: number[] } | null>(null);

  const onCameraFailure = useCallback((kind: CameraErrorKind, error: unknown) => {
    sendAudit('holograma', 'Error', cameraErrorDatum(kind, error)).catch(ignore);
    setCameraError(kind);
    setPhase('cameraError');
  }, []);
  const stream = useCamera(phase === 'camera' || phase === 'recording' || phase === 'sending', openDocumentCamera, onCameraFailure);

  const stopRun = useCallback(() => {
    const current = run.current;
    run.current = null;
    if (!current) return;
    for (const timer of current.timers) window.clearTimeout(timer);
    current.recording?.cancel();
    current.controller.abort();
  }, []);

  useEffect(() => stopRun, [stopRun]);

  async function upload(video: Blob, controller: AbortController): Promise<void> {
    setPhase('sending');
    try {
      await api().postMultipart('idCalibrate', calibrationForm(video, originOS(platform)), { step: 'holograma', signal: controller.signal });
      if (controller.signal.aborted) return;
      stopRun();
      journey({ type: 'calibrated' });
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted) return;
      stopRun();
      setMessage(error instanceof ApiError ? (error.messageClient ?? (error.hasResponse ? texts.failed : capture.network.message)) : texts.failed);
      setPhase('camera');
    }
  }

  function calibrate(): void {
    if (!stream || run.current) return;
    setMessage(null);
    let recording: Recording;
    try {
      recording = startRecording(stream, isIOS(platform));
    } catch (error) {
      onCameraFailure(classifyCameraError(error), error);
      return;
    }
    const controller = new AbortController();
    const current = { recording: recording as Recording | null, controller, timers: [] as number[] };
    run.current = current;
    setPhase('recording');
    current.timers.push(
      window.setTimeout(() => {
        const active = current.recording;
        current.recording = null;
        active?.stop().then(
          (video) => upload(video, controller),
          (error: unknown) => {
            if (run.current !== current) return;
            stopRun();
            onCameraFailure('other', error);
          },
        );
      }, hologramLimits.stopAfterMs),
      // Hard stop: whatever is still running is dropped and the ID capture goes on without calibration.
      window.setTimeout(() => {
        if (run.current !== current) return;
        stopRun();
        sendAudit('holograma', 'Error', JSON.stringify({ motivo: 'tiempo agotado', ms: hologramLimits.hardStopMs })).catch(ignore);
        journey({ type: 'timedOut' });
      }, hologramLimits.hardStopMs),
    );
  }

  const cancel = () => {
    stopRun();
    journey({ type: 'cancel' });
  };

  if (phase === 'cameraError') return <CameraErrorNotice kind={cameraError} step="holograma" />;

  if (phase === 'unsupported') return <UnsupportedScreen onContinue={() => journey({ type: 'skipped' })} />;
  if (phase === 'instructions') return <InstructionsScreen onCalibrate={() => setPhase('camera')} onCancel={cancel} />;

  return (
    <CameraScreen
      phase={phase}
      ready={ready}
      message={message}
      mirrored={desktop}
      stream={stream}
      videoRef={videoRef}
      onReady={() => setReady(true)}
      onFailure={(error) => onCameraFailure(classifyCameraError(error), error)}
      onCalibrate={calibrate}
      onCancel={cancel}
    />
  );
}

interface CameraScreenProps {
  phase: Phase;
  ready: boolean;
  message: string | null;
  mirrored: boolean;
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  onReady: () => void;
  onFailure: (error: unknown) => void;
  onCalibrate: () => void;
  onCancel: () => void;
}

/** The camera with the card guide, CAPTURAR Y CALIBRAR, and the recording and sending status. */
function CameraScreen({ phase, ready, message, mirrored, stream, videoRef, onReady, onFailure, onCalibrate, onCancel }: CameraScreenProps) {
  const busy = phase === 'recording' || phase === 'sending';
  return (
    <Screen
      key="camera"
      title={texts.title}
      step="holograma"
      className="capture"
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={!ready || busy} onClick={onCalibrate}>
            {busy ? texts.calibrating : texts.captureCalibrate}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {capture.common.cancel}
          </button>
        </>
      }
    >
      <CameraStage stream={stream} videoRef={videoRef} label={texts.videoLabel} guide="id1" mirrored={mirrored} onReady={onReady} onFailure={onFailure} />
      <p className="capture-hint">{texts.cameraHint}</p>
      {message ? (
        <p className="notice__message" role="alert">
          {message}
        </p>
      ) : null}
      <p role="status" className="capture-note">
        {phase === 'recording' ? texts.recording : phase === 'sending' ? texts.sending : null}
      </p>
    </Screen>
  );
}

/** The browser cannot record: the calibration is skipped. */
function UnsupportedScreen({ onContinue }: { onContinue: () => void }) {
  return (
    <Screen
      title={texts.title}
      step="holograma"
      actions={
        <button type="button" className="btn btn--primary" onClick={onContinue}>
          {capture.common.continue}
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {texts.unsupported}
      </p>
    </Screen>
  );
}

/** The calibration's steps before the camera opens (phones). */
function InstructionsScreen({ onCalibrate, onCancel }: { onCalibrate: () => void; onCancel: () => void }) {
  return (
    <Screen
      key="instructions"
      title={texts.title}
      step="holograma"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onCalibrate}>
            {texts.calibrate}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {capture.common.cancel}
          </button>
        </>
      }
    >
      <p>{texts.intro}</p>
      <ol className="hologram-steps">
        {texts.steps.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ol>
    </Screen>
  );
}
