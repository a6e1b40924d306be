import { describe, expect, it } from 'vitest';
import { faceReducer, faceView, initialFaceState, type FaceEvent, type FaceState } from './face-machine';
import { attemptRules, describeFailure } from './outcomes';
import type { DigitSchedule } from './schedule';

const schedule: DigitSchedule = { digitsMs: [1500, 2600, 3700, 4800], stopMs: 8000, prompts: [{ motion: 'left', atMs: 6500 }] };
const mainRules = attemptRules('main', 3);
const frame = { width: 640, height: 480 };

function run(state: FaceState, ...events: FaceEvent[]): FaceState {
  return events.reduce(faceReducer, state);
}

function fresh(used = 0, rules = mainRules): FaceState {
  return initialFaceState({ rules, attempts: { used, max: rules.max } });
}

/** The camera up and an attempt at the reading of its digits. */
function reading(state = fresh()): FaceState {
  return run(
    state,
    { type: 'continue' },
    { type: 'cameraReady', frame },
    { type: 'attemptStarted' },
    { type: 'photo' },
    { type: 'token' },
    { type: 'codeReceived', code: '4821', schedule },
    { type: 'reading' },
  );
}

describe('face video machine', () => {
  it('starts at the intro, or at the final screen when the attempts are already used (no journey event then)', () => {
    expect(fresh().phase).toBe('intro');
    const used = fresh(3);
    expect(used.phase).toBe('failed');
    expect(used.outcome).toBeNull();
  });

  it('walks an attempt through its stages: position, photo, token, stability, reading', () => {
    let state = run(fresh(), { type: 'continue' });
    expect(state.phase).toBe('camera');
    expect(faceView(state, 'grabacion').prompt).toEqual({ text: 'position' });
    state = run(state, { type: 'cameraReady', frame }, { type: 'attemptStarted' }, { type: 'photo' });
    expect(state.stage).toBe('photo');
    state = run(state, { type: 'token' });
    expect(faceView(state, 'grabacion')).toMatchObject({ prompt: { text: 'token' }, spinner: true, titleVisible: false });
    state = run(state, { type: 'codeReceived', code: '4821', schedule });
    expect(faceView(state, 'grabacion')).toMatchObject({ prompt: { text: 'stability' }, titleVisible: true, digits: null });
  });

  it('shows each digit at its time, then the head turn, then processing (a tick later on the recorder path)', () => {
    const state = reading();
    const at = (elapsed: number, path: 'grabacion' | 'tiempo_real' = 'grabacion') => faceView(run(state, { type: 'tick', elapsed }), path);
    expect(at(0)).toMatchObject({ titleVisible: true, digits: null, prompt: null });
    expect(at(1500).digits).toEqual({ slot: 0, digit: '4' });
    expect(at(3700).digits).toEqual({ slot: 2, digit: '2' });
    expect(at(5800).digits).toEqual({ slot: 4, digit: '' });
    expect(at(6500)).toMatchObject({ digits: null, prompt: { turn: 'left' }, guideActive: true });
    expect(at(8000, 'tiempo_real')).toMatchObject({ processing: true, prompt: { text: 'processing' }, cancelDisabled: true, spinner: true });
    expect(at(8000, 'grabacion').processing).toBe(false);
    expect(at(9000, 'grabacion').processing).toBe(true);
  });

  it('ignores ticks outside the reading', () => {
    const state = run(fresh(), { type: 'continue' }, { type: 'tick', elapsed: 1500 });
    expect(state.elapsed).toBe(-1);
  });

  it('a match ends the step once', () => {
    const state = run(reading(), { type: 'matched' });
    expect(state.outcome).toBe('matched');
    expect(faceView(state, 'grabacion')).toMatchObject({ prompt: { text: 'matched' }, cancelDisabled: true });
    expect(run(state, { type: 'failed', failure: describeFailure({ kind: 'watchdog' }) })).toBe(state);
  });

  it('a counted failure opens the dialog with the attempts left; Reintentar starts a new run as a retry', () => {
    const state = run(reading(), { type: 'failed', failure: describeFailure({ kind: 'watchdog' }) });
    expect(state.attempts.used).toBe(1);
    expect(faceView(state, 'grabacion')).toMatchObject({ prompt: null, processing: false, dialog: { action: 'retry', attemptsLeft: 2 } });
    // Nothing of the aborted attempt changes the screen behind the dialog.
    expect(run(state, { type: 'tick', elapsed: 1500 })).toBe(state);
    const retried = run(state, { type: 'dialogPrimary' });
    expect(retried).toMatchObject({ failure: null, retry: true, run: 1, phase: 'camera' });
  });

  it('a failure that does not count mentions no attempts when none was used', () => {
    const state = run(reading(), { type: 'failed', failure: describeFailure({ kind: 'network' }) });
    expect(state.attempts.used).toBe(0);
    expect(faceView(state, 'grabacion').dialog).toEqual({ action: 'retry', attemptsLeft: null });
  });

  it('after a no-match, Reiniciar goes back to the intro for a first (not retried) attempt', () => {
    const state = run(reading(), { type: 'failed', failure: describeFailure({ kind: 'response', status: 200 }) });
    expect(faceView(state, 'grabacion').dialog?.action).toBe('restartStep');
    expect(run(state, { type: 'dialogPrimary' })).toMatchObject({ phase: 'intro', failure: null, retry: false, stage: 'position', code: '' });
  });

  it('the last attempt ends on the final screen with the exhausted outcome', () => {
    const state = run(reading(fresh(2)), { type: 'failed', failure: describeFailure({ kind: 'watchdog' }) });
    expect(state).toMatchObject({ phase: 'failed', outcome: 'exhausted', failure: null, attempts: { used: 3, max: 3 } });
  });

  it('the link flow sends the dialog back to its landing page from its third used attempt, and stays until then', () => {
    const rules = attemptRules('link', 3);
    const state = run(reading(fresh(2, rules)), { type: 'failed', failure: describeFailure({ kind: 'watchdog' }) });
    expect(faceView(state, 'grabacion').dialog?.action).toBe('restartLink');
    expect(run(state, { type: 'dialogPrimary' })).toBe(state);
  });

  it('a camera failure shows the camera notice; the cancel dialog opens and closes', () => {
    const camera = run(fresh(), { type: 'continue' });
    expect(run(camera, { type: 'cameraFailed', kind: 'permissionDenied' })).toMatchObject({ phase: 'cameraError', cameraError: 'permissionDenied' });
    expect(run(fresh(), { type: 'cameraFailed', kind: 'permissionDenied' }).phase).toBe('intro');
    expect(run(fresh(), { type: 'cancel' }).cancelOpen).toBe(true);
    expect(run(fresh(), { type: 'cancel' }, { type: 'dismissCancel' }).cancelOpen).toBe(false);
  });

  it('a closed stream makes the next attempt wait for frames again', () => {
    const state = run(fresh(), { type: 'continue' }, { type: 'cameraReady', frame });
    expect(state.ready).toBe(true);
    expect(run(state, { type: 'cameraClosed' }).ready).toBe(false);
  });
});
