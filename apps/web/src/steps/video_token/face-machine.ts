import type { CameraErrorKind } from '../../media/camera-select';
import type { Size } from '../../media/geometry';
import { applyFailure, attemptsExhausted, dialogAction, type AttemptRules, type DialogAction, type FailureView, type VideoAttempts } from './outcomes';
import { readingView, type DigitSchedule, type MotionPrompt, type TickView, type VideoPath } from './schedule';

/**
 * The face video as a pure reducer (docs/flow.md §2 "Face video token", §4 "Face video"): intro, camera, one attempt
 * after another through its stages, 'Lo sentimos' between them, and the two ends (a match, or the attempts used up).
 * `useFaceVideo` runs the camera, the code request, the recording or the real-time session, the upload and the
 * watchdog, and feeds what happens in as events; the screen renders the state through `faceView`.
 */
export type FacePhase =
  /** Instructions before the camera opens. */
  | 'intro'
  /** The camera and the attempts. */
  | 'camera'
  /** 'Proceso no exitoso': the attempts are used up (on arrival, or after the last one). */
  | 'failed'
  | 'cameraError';

/** Where an attempt is: positioning, photo, code request, stability wait, reading the digits, waiting for the verdict. */
export type FaceStage = 'position' | 'photo' | 'token' | 'stability' | 'reading' | 'matched';

export interface FaceState {
  phase: FacePhase;
  stage: FaceStage;
  rules: AttemptRules;
  /** Mirror of the server's count, for the dialog and the final screen (intentsData.video_token). */
  attempts: VideoAttempts;
  /** Ms since the recording started (the reading sequence's time 0), -1 before; the screen follows the code's schedule. */
  elapsed: number;
  /** The digits shown (the code's first four). */
  code: string;
  schedule: DigitSchedule | null;
  /** 'Lo sentimos' is open with this failure. */
  failure: FailureView | null;
  /** The next attempt is a retry (the shorter positioning delay). */
  retry: boolean;
  /** Bumped by Reintentar: a new attempt starts. */
  run: number;
  /** The camera shows frames (the attempt may start). */
  ready: boolean;
  frame: Size | null;
  cancelOpen: boolean;
  cameraError: CameraErrorKind;
  /** How the step ended here, once: the hook reports it to the journey. */
  outcome: 'matched' | 'exhausted' | null;
}

export interface FaceStart {
  rules: AttemptRules;
  attempts: VideoAttempts;
}

export function initialFaceState({ rules, attempts }: FaceStart): FaceState {
  return {
    phase: attemptsExhausted(attempts) ? 'failed' : 'intro',
    stage: 'position',
    rules,
    attempts,
    elapsed: -1,
    code: '',
    schedule: null,
    failure: null,
    retry: false,
    run: 0,
    ready: false,
    frame: null,
    cancelOpen: false,
    cameraError: 'other',
    outcome: null,
  };
}

export type FaceEvent =
  | { type: 'continue' }
  | { type: 'cancel' }
  | { type: 'dismissCancel' }
  | { type: 'cameraFailed'; kind: CameraErrorKind }
  | { type: 'cameraReady'; frame: Size }
  /** The stream went away (the camera is closed or reopened): the next attempt waits for frames again. */
  | { type: 'cameraClosed' }
  | { type: 'attemptStarted' }
  | { type: 'photo' }
  | { type: 'token' }
  | { type: 'codeReceived'; code: string; schedule: DigitSchedule }
  | { type: 'reading' }
  /** The reading sequence reached this many ms since its start. */
  | { type: 'tick'; elapsed: number }
  | { type: 'matched' }
  | { type: 'failed'; failure: FailureView }
  /** The dialog's main button (Reintentar or Reiniciar). */
  | { type: 'dialogPrimary' };

/** The attempt's fields a new attempt resets. */
const freshAttempt = { stage: 'position', elapsed: -1, code: '', schedule: null } as const;

/** An event about the attempt under way counts only while the camera is up and no dialog is open. */
function attemptRunning(state: FaceState): boolean {
  return state.phase === 'camera' && state.failure === null && state.outcome === null;
}

function failed(state: FaceState, failure: FailureView): FaceState {
  if (!attemptRunning(state)) return state;
  const attempts = applyFailure(state.attempts, failure);
  if (attemptsExhausted(attempts)) return { ...state, attempts, phase: 'failed', outcome: 'exhausted' };
  return { ...state, attempts, failure };
}

function dialogPrimary(state: FaceState): FaceState {
  if (state.failure === null) return state;
  switch (dialogAction(state.failure, state.attempts, state.rules)) {
    case 'restartLink':
      // Back to the link's landing page: the dialog stays until the page changes (no attempt restarts here).
      return state;
    case 'restartStep':
      return { ...state, failure: null, retry: false, phase: 'intro', ...freshAttempt };
    case 'retry':
      return { ...state, failure: null, retry: true, run: state.run + 1 };
  }
}

/** The next state; events that make no sense in the current phase leave it unchanged. */
export function faceReducer(state: FaceState, event: FaceEvent): FaceState {
  switch (event.type) {
    case 'continue':
      return state.phase === 'intro' ? { ...state, phase: 'camera', cancelOpen: false } : state;
    case 'cancel':
      return { ...state, cancelOpen: true };
    case 'dismissCancel':
      return { ...state, cancelOpen: false };
    case 'cameraFailed':
      return state.phase === 'camera' ? { ...state, phase: 'cameraError', cameraError: event.kind } : state;
    case 'cameraReady':
      return { ...state, ready: true, frame: event.frame };
    case 'cameraClosed':
      return state.ready ? { ...state, ready: false } : state;
    case 'attemptStarted':
      return attemptRunning(state) ? { ...state, ...freshAttempt } : state;
    case 'photo':
    case 'token':
      return attemptRunning(state) ? { ...state, stage: event.type } : state;
    case 'codeReceived':
      return attemptRunning(state) ? { ...state, stage: 'stability', code: event.code, schedule: event.schedule } : state;
    case 'reading':
      return attemptRunning(state) ? { ...state, stage: 'reading' } : state;
    case 'tick':
      return attemptRunning(state) && state.stage === 'reading' ? { ...state, elapsed: event.elapsed } : state;
    case 'matched':
      return attemptRunning(state) ? { ...state, stage: 'matched', outcome: 'matched' } : state;
    case 'failed':
      return failed(state, event.failure);
    case 'dialogPrimary':
      return dialogPrimary(state);
  }
}

/** The line under the camera: a stage's text, processing, a head turn, or nothing. */
export type FacePrompt = { text: 'position' | 'photo' | 'token' | 'stability' | 'matched' | 'processing' } | { turn: MotionPrompt['motion'] } | null;

/** What the camera screen shows for a state (the component only renders it). */
export interface FaceView {
  /** The reading sequence's moment (digits, title, motion), null outside the reading. */
  reading: TickView | null;
  /** 'Lee cada número...' is shown. */
  titleVisible: boolean;
  /** 'Procesando...' (never behind 'Lo sentimos': the camera shows no stale progress). */
  processing: boolean;
  prompt: FacePrompt;
  /** data-stage of the prompt line. */
  promptStage: FaceStage | 'processing';
  /** The digit carousel: the slot shown and its digit (the blank fifth slot after the last). */
  digits: { slot: number; digit: string } | null;
  spinner: boolean;
  /** The guide's oval is lit while the person reads. */
  guideActive: boolean;
  cancelDisabled: boolean;
  /** The dialog's main button, and the attempts left it mentions (null: not mentioned). */
  dialog: { action: DialogAction; attemptsLeft: number | null } | null;
}

function promptOf(state: FaceState, reading: TickView | null, processing: boolean): FacePrompt {
  if (state.failure) return null;
  if (state.stage !== 'reading') return { text: state.stage };
  if (processing) return { text: 'processing' };
  return reading?.motion ? { turn: reading.motion } : null;
}

export function faceView(state: FaceState, path: VideoPath): FaceView {
  const reading = state.stage === 'reading' && state.schedule && state.elapsed >= 0 ? readingView(state.elapsed, state.code, state.schedule, path) : null;
  const processing = (reading?.processing ?? false) && state.failure === null;
  const left = state.attempts.max - state.attempts.used;
  return {
    reading,
    titleVisible: state.stage === 'stability' || (reading?.titleVisible ?? false),
    processing,
    prompt: promptOf(state, reading, processing),
    promptStage: processing ? 'processing' : state.stage,
    digits: reading && reading.slot !== null && !processing && !reading.motion ? { slot: reading.slot, digit: reading.digit } : null,
    spinner: processing || state.stage === 'token',
    guideActive: state.stage === 'reading' && !processing,
    cancelDisabled: processing || state.stage === 'matched',
    dialog: state.failure ? { action: dialogAction(state.failure, state.attempts, state.rules), attemptsLeft: state.attempts.used > 0 && left > 0 ? left : null } : null,
  };
}
