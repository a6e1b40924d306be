import { useMemo, useState, type RefObject } from 'react';
import { currentPlatform, isMobileDevice } from '../../media/platform';
import type { DocumentFormat } from '../../media/geometry';
import { idImage } from '../../media/capture';
import { AnalysisChecklist } from '../../ui/AnalysisChecklist';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { CaptureTips } from '../../ui/CaptureTips';
import { CaptureVerify } from '../../ui/CaptureVerify';
import { texts as captureTexts } from '../../i18n/es-MX/capture';
import { texts } from '../../i18n/es-MX/identificacion';
import { CropAdjust } from '../../ui/CropAdjust';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { LoadingState } from '../../ui/LoadingState';
import { ProcessFailed } from '../../ui/ProcessFailed';
import { NetworkRetry } from '../../ui/NetworkRetry';
import { Screen } from '../../ui/Screen';
import { checklist, qualityOverrideAfter, uploadPercent, type CaptureState } from './capture-machine';
import type { IdCaptureModel } from './useIdCapture';
import '../../ui/capture.css';

/** The desktop tip ('hold the ID with two fingers') shows once per page load. */
let holdTipShown = false;

/** The screen of an ID-capture state (rendered on its own by the component tests). */
export function IdCaptureScreen({ model }: { model: IdCaptureModel }) {
  const { state, actions, capture, cropped } = model;
  switch (state.phase) {
    case 'intro':
      return <Intro onContinue={actions.continue} onCancel={actions.cancel} />;
    case 'camera':
    case 'capturing':
      return (
        <CameraScreen
          key={`camera-${state.side}`}
          state={state}
          stream={model.stream}
          videoRef={model.videoRef}
          format={model.format}
          frontJustRead={model.frontJustRead}
          onCapture={actions.capture}
          onCancel={actions.cancel}
          onFailure={actions.cameraFailed}
        />
      );
    case 'retake':
      return <RetakeScreen state={state} imageUrl={capture?.url ?? null} onRetake={actions.retake} onUseAnyway={actions.useAnyway} />;
    case 'adjust':
      return capture ? (
        <CropAdjust
          key={capture.url}
          step="identificacion"
          image={{ url: capture.url, width: capture.frame.width, height: capture.frame.height }}
          initialCrop={capture.mask}
          previewScale={idImage.previewScale}
          busy={model.adjusting}
          onDone={actions.adjusted}
          onRetake={actions.retake}
        />
      ) : (
        <Busy />
      );
    case 'verify':
      return cropped ? <CaptureVerify step="identificacion" imageUrl={cropped.url} imageAlt={captureTexts.verify.imageAlt} onRetake={actions.retake} onSave={actions.save} /> : <Busy />;
    case 'uploading':
    case 'sideDone':
    case 'finished':
      return <AnalysisScreen state={state} imageUrl={cropped?.url ?? null} />;
    case 'networkError':
      return <NetworkRetry step="identificacion" message={state.message} canResend={cropped !== null} onResend={actions.resend} onRetake={actions.retake} />;
    case 'exhausted':
      return <ProcessFailed step="identificacion" message={state.message ?? captureTexts.failed.message} onAcknowledge={actions.acknowledgeFailure} />;
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
      title={texts.intro.title}
      step="identificacion"
      className="capture-intro"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onContinue}>
            {captureTexts.common.continue}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {captureTexts.common.cancel}
          </button>
        </>
      }
    >
      <IdIllustration />
      <ul className="capture-tips">
        <li>
          <Icon name="id" />
          {texts.intro.surface}
        </li>
        <li>
          <Icon name="focus" />
          {texts.intro.frame}
        </li>
        <li>
          <Icon name="sun" />
          {texts.intro.glare}
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
  const title = state.passport ? texts.camera.titlePassport : back ? texts.camera.titleBack : texts.camera.titleFront;
  const hint = state.passport ? texts.camera.hintPassport : back ? texts.camera.hintBack : texts.camera.hintFront;
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
            {busy ? captureTexts.camera.processing : back ? texts.camera.captureBack : texts.camera.captureFront}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={onCancel}>
            {captureTexts.common.cancel}
          </button>
        </>
      }
    >
      <CameraStage stream={stream} videoRef={videoRef} label={texts.camera.videoLabel} guide={format} onReady={() => setReady(true)} onFailure={onFailure} />
      <p className="capture-hint">{hint}</p>
      <p role="status" className="capture-note">
        {busy ? texts.camera.holdingStill : frontJustRead && back ? texts.camera.frontRead : null}
      </p>
      <Dialog
        open={holdOpen}
        title={texts.hold.title}
        onClose={closeHold}
        actions={
          <button type="button" className="btn btn--primary" data-autofocus onClick={closeHold}>
            {texts.hold.start}
          </button>
        }
      >
        <p>{texts.hold.text}</p>
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
      title={texts.quality.title}
      step="identificacion"
      className="capture-retake"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onRetake}>
            {texts.quality.retake}
          </button>
          {canOverride ? (
            <button type="button" className="btn btn--secondary" onClick={onUseAnyway}>
              {texts.quality.useAnyway}
            </button>
          ) : null}
        </>
      }
    >
      <p className="notice__message" role="alert" data-issue={issue}>
        {texts.quality[issue]}
      </p>
      <p>{texts.quality.notSent}</p>
      {canOverride ? <p>{texts.quality.useAnywayHint}</p> : null}
      {imageUrl ? <img className="capture-retake__image" src={imageUrl} alt={texts.quality.captureAlt} /> : null}
      <CaptureTips />
    </Screen>
  );
}

function AnalysisScreen({ state, imageUrl }: { state: CaptureState; imageUrl: string | null }) {
  const items = checklist(state.side, state.upload, state.documentFoundOnDevice);
  const status = state.upload.stage === 'received' ? captureTexts.analysis.read : state.upload.stage === 'processing' ? captureTexts.analysis.sent : captureTexts.analysis.sending(null);
  return (
    <Screen key={`analysis-${state.side}`} title={state.side === 'back' ? captureTexts.analysis.titleBack : captureTexts.analysis.titleFront} step="identificacion" className="capture-analysis">
      {imageUrl ? <img className="analysis__thumb" src={imageUrl} alt={captureTexts.verify.imageAlt} /> : null}
      <AnalysisChecklist items={items} percent={uploadPercent(state.upload)} status={status} />
    </Screen>
  );
}
