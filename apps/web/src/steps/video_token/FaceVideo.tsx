import type { ReactNode } from 'react';
import { CameraErrorNotice } from '../../ui/CameraErrorNotice';
import { CameraStage } from '../../ui/CameraStage';
import { CancelDialog } from '../../ui/CancelDialog';
import { Dialog } from '../../ui/Dialog';
import { ProcessFailed } from '../../ui/ProcessFailed';
import { Screen } from '../../ui/Screen';
import { texts } from '../../i18n/es-MX/video_token';
import { faceView, type FacePrompt, type FaceView } from './face-machine';
import { FaceGuide, TipIcon } from './FaceGuide';
import { shownDigits } from './schedule';
import type { FaceVideoModel } from './useFaceAttempts';
import { useFaceVideo } from './useFaceVideo';
import '../../ui/capture.css';
import './face.css';

/**
 * The face video token (docs/flow.md §2 "Face video token", §4 "Face video", §8, §9) of the main flow (/video_token)
 * and of the result-link flow (/pdf_video_token) (the screen is also a redo link's face step, repetir/RedoFace): intro, camera with a face guide, a photo that obtains the
 * code, the stability wait, the digits at the code's schedule, then the recording sent (recorder path) or the real-time
 * capture finished, and the verdict: a match moves on, an error opens 'Lo sentimos', exhausted attempts end it.
 * The decisions are `face-machine.ts`, the I/O `useFaceAttempts` (the journey's hooks in `useFaceVideo`); this renders
 * the state.
 */
export function FaceVideo({ flow }: { flow: 'main' | 'link' }) {
  return <FaceVideoScreen model={useFaceVideo(flow)} />;
}

/** The screen of a face-video state (rendered on its own by the component tests). */
export function FaceVideoScreen({ model }: { model: FaceVideoModel }) {
  const { state, step, actions } = model;
  const cancelDialog = <CancelDialog open={state.cancelOpen} onDismiss={actions.dismissCancel} onConfirm={actions.confirmCancel} />;
  switch (state.phase) {
    case 'cameraError':
      return <CameraErrorNotice kind={state.cameraError} step={step} />;
    case 'failed':
      return <ProcessFailed message={texts.attemptsExceeded} step={step} onAcknowledge={actions.acknowledgeFailure} />;
    case 'intro':
      return <FaceIntro step={step} onContinue={actions.continue} onCancel={actions.cancel} cancelDialog={cancelDialog} />;
    case 'camera':
      return <FaceCamera model={model} cancelDialog={cancelDialog} />;
  }
}

function FaceIntro({ step, onContinue, onCancel, cancelDialog }: { step: string; onContinue: () => void; onCancel: () => void; cancelDialog: ReactNode }) {
  return (
    <Screen
      key="intro"
      title={texts.title}
      step={step}
      className="face-intro"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={onContinue}>
            {texts.continue}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>
            {texts.cancel}
          </button>
        </>
      }
    >
      <p>{texts.intro}</p>
      <h2 className="section-title">{texts.tipsTitle}</h2>
      <ul className="capture-tips">
        {(Object.keys(texts.tips) as (keyof typeof texts.tips)[]).map((tip) => (
          <li key={tip}>
            <TipIcon name={tip} />
            {texts.tips[tip]}
          </li>
        ))}
      </ul>
      <p className="face-intro__note">{texts.permissions}</p>
      {cancelDialog}
    </Screen>
  );
}

function promptText(prompt: FacePrompt): string | null {
  if (prompt === null) return null;
  return 'turn' in prompt ? texts.turn[prompt.turn] : texts[prompt.text];
}

function FaceCamera({ model, cancelDialog }: { model: FaceVideoModel; cancelDialog: ReactNode }) {
  const { state, step, actions } = model;
  const view = faceView(state, model.path);
  const prompt = promptText(view.prompt);
  return (
    <Screen
      key="camera"
      title={texts.title}
      step={step}
      className="capture face-video"
      actions={
        <button type="button" className="btn btn--secondary" disabled={view.cancelDisabled} onClick={actions.cancel}>
          {texts.cancel}
        </button>
      }
    >
      <CameraStage stream={model.stream} videoRef={model.videoRef} label={texts.videoLabel} mirrored onReady={actions.cameraReady} onFailure={actions.cameraFailed}>
        <FaceGuide active={view.guideActive} frame={state.frame} />
        <div className="face-video__overlay">
          <p className="face-video__prompt" role="status" aria-live="polite" data-stage={view.promptStage}>
            {view.titleVisible ? <strong className="face-video__read">{texts.read}</strong> : null}
            {prompt ? <span>{prompt}</span> : null}
          </p>
          {view.digits ? <DigitCarousel slot={view.digits.slot} digit={view.digits.digit} /> : null}
          {view.spinner ? <span className="spinner face-video__spinner" aria-hidden="true" /> : null}
        </div>
      </CameraStage>
      <FaceErrorDialog model={model} view={view} />
      {cancelDialog}
    </Screen>
  );
}

function DigitCarousel({ slot, digit }: { slot: number; digit: string }) {
  return (
    <div className="face-video__digits" role="status" aria-live="assertive" aria-atomic="true">
      <span className="visually-hidden">{slot < shownDigits ? `${texts.digitLabel(slot + 1, shownDigits)}: ${digit}` : texts.done}</span>
      <span key={slot} className="face-video__digit" data-slot={slot} aria-hidden="true">
        {digit}
      </span>
      <span className="face-video__dots" aria-hidden="true">
        {Array.from({ length: shownDigits }, (_, index) => (
          <span key={index} className={index <= slot ? 'face-video__dot face-video__dot--on' : 'face-video__dot'} />
        ))}
      </span>
    </div>
  );
}

/** 'Lo sentimos': the failure's message and hint, the attempts left, Reintentar or Reiniciar, and Cancelar. */
function FaceErrorDialog({ model, view }: { model: FaceVideoModel; view: FaceView }) {
  const { state, actions } = model;
  const action = view.dialog?.action ?? 'retry';
  return (
    <Dialog
      open={state.failure !== null}
      title={texts.errorTitle}
      // Escape keeps the dialog: leaving the face video is the explicit Cancelar.
      onClose={() => undefined}
      actions={
        <>
          <button type="button" className="btn btn--primary" data-autofocus onClick={actions.dialogPrimary}>
            {action === 'retry' ? texts.errorRetry : texts.errorRestart}
          </button>
          <button type="button" className="btn btn--secondary" onClick={actions.abandon}>
            {texts.errorCancel}
          </button>
        </>
      }
    >
      <p className="face-error__message" data-testid="face-error">
        {state.failure?.message}
      </p>
      {state.failure?.hint ? <p>{state.failure.hint}</p> : null}
      {view.dialog?.attemptsLeft ? <p className="face-error__attempts">{texts.attemptsLeft(view.dialog.attemptsLeft)}</p> : null}
    </Dialog>
  );
}
