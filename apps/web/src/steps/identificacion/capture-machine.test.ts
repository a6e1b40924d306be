import { describe, expect, it } from 'vitest';
import { errorTexts } from '@kyc/contracts/texts';
import { captureReducer, checklist, decideRead, decideReadError, initialCaptureState, intentsOf, qualityOverrideAfter, uploadPercent, type CaptureEvent, type CaptureState } from './capture-machine';

const noIntents = { id_frontal: 0, id_reverso: 0, id_frontal_tolerado: false };
const start = (overrides: Partial<Parameters<typeof initialCaptureState>[0]> = {}) => initialCaptureState({ passport: false, side: 'front', skipIntro: false, intents: noIntents, ...overrides });

const ineFront = {
  nombreCompleto: 'MARÍA GUADALUPE HERNÁNDEZ LÓPEZ',
  curp: 'HELG900215MDFRPD09',
  identificacionElectoral: true,
  identificacionPasaporte: false,
};
const incompleteFront = { nombreCompleto: 'MARÍA', curp: '', identificacionElectoral: true };
const ineBack = { cicMRZ: '123456789', cadena: 'IDMEX...' };

function run(state: CaptureState, ...events: CaptureEvent[]): CaptureState {
  return events.reduce(captureReducer, state);
}

/** From the live view to the upload: capture, a passing on-device check, crop, confirm. */
const toUpload: CaptureEvent[] = [{ type: 'capture' }, { type: 'checked', ok: true, issues: [] }, { type: 'adjusted' }, { type: 'save' }];

function read(state: CaptureState, ocrData: Record<string, string | boolean>): CaptureState {
  return captureReducer(state, { type: 'read', decision: decideRead(state, ocrData) });
}

describe('ID capture: front then back (docs/flow.md §4)', () => {
  it('intro → camera → capturing → adjust → verify → uploading', () => {
    let state = start();
    expect(state.phase).toBe('intro');
    state = run(state, { type: 'continue' });
    expect(state.phase).toBe('camera');
    const phases = toUpload.map((event) => {
      state = captureReducer(state, event);
      return state.phase;
    });
    expect(phases).toEqual(['capturing', 'adjust', 'verify', 'uploading']);
    expect(state.upload).toEqual({ stage: 'sending', loaded: 0, total: null });
  });

  it('"a successful front read moves to the back"; "a successful back read ... goes to /resultados_identificacion"', () => {
    let state = run(start({ skipIntro: true }), ...toUpload);
    state = read(state, ineFront);
    expect(state.phase).toBe('sideDone');
    expect(state.side).toBe('front');
    state = run(state, { type: 'nextSide' });
    expect(state).toMatchObject({ side: 'back', phase: 'camera' });
    state = read(run(state, ...toUpload), ineBack);
    expect(state).toMatchObject({ side: 'back', phase: 'finished', passport: false });
    expect(state.attempts).toEqual({ front: 0, back: 0 });
  });

  it('tracks the upload: progress, body sent, answer received', () => {
    let state = run(start({ skipIntro: true }), ...toUpload);
    state = run(state, { type: 'progress', loaded: 30, total: 120 });
    expect(uploadPercent(state.upload)).toBe(25);
    state = run(state, { type: 'uploaded' });
    expect(state.upload.stage).toBe('processing');
    // Late progress events do not move the stage back.
    expect(run(state, { type: 'progress', loaded: 1, total: 120 }).upload.stage).toBe('processing');
  });
});

describe('incomplete front data is tolerated once', () => {
  it('the first incomplete front goes on to the back, without counting an attempt', () => {
    const state = read(run(start({ skipIntro: true }), ...toUpload), incompleteFront);
    expect(state).toMatchObject({ phase: 'sideDone', frontTolerated: true });
    expect(state.attempts.front).toBe(0);
    expect(decideRead({ side: 'front', passport: false, frontTolerated: false }, incompleteFront)).toEqual({
      kind: 'toBack',
      dataOk: false,
      tolerated: true,
    });
  });

  it('"otherwise it counts as an attempt and shows an error"', () => {
    const tolerated = start({ skipIntro: true, intents: { ...noIntents, id_frontal_tolerado: true } });
    const state = read(run(tolerated, ...toUpload), incompleteFront);
    expect(state).toMatchObject({ phase: 'failed', message: errorTexts.idUnreadable, reason: 'Datos incompletos' });
    expect(state.attempts.front).toBe(1);
    expect(intentsOf(state)).toEqual({ id_frontal: 1, id_reverso: 0, id_frontal_tolerado: true });
  });

  it('badly formatted data gives the format reason', () => {
    const decision = decideRead({ side: 'front', passport: false, frontTolerated: true }, { nombreCompleto: 'ANA LÓPEZ', curp: 'HELG900215MDFRPD09' });
    expect(decision).toEqual({ kind: 'rejected', reason: 'Datos no cumplen con formato', message: errorTexts.idUnreadable });
  });

  it('good front data never uses up the tolerance', () => {
    const state = read(run(start({ skipIntro: true }), ...toUpload), ineFront);
    expect(state.frontTolerated).toBe(false);
  });
});

describe('passports skip the back', () => {
  it('by router state (passport=true)', () => {
    const state = read(run(start({ skipIntro: true, passport: true }), ...toUpload), { ...ineFront, identificacionPasaporte: false });
    expect(state).toMatchObject({ phase: 'finished', side: 'front', passport: true });
  });

  it('by the front read\'s flag identificacionPasaporte (also as the string "true")', () => {
    for (const flag of [true, 'true']) {
      const state = read(run(start({ skipIntro: true }), ...toUpload), { ...ineFront, identificacionElectoral: false, identificacionPasaporte: flag });
      expect(state).toMatchObject({ phase: 'finished', passport: true });
    }
  });

  it('migration forms (FMM) have no back either', () => {
    const state = read(run(start({ skipIntro: true }), ...toUpload), { nombreCompleto: 'JOHN MICHAEL SMITH', curp: 'SMXJ850101HNELHN01', identificacionMigratoria: true });
    expect(state).toMatchObject({ phase: 'finished', passport: true });
  });

  it('a tolerated incomplete passport front goes straight to the results', () => {
    const state = read(run(start({ skipIntro: true, passport: true }), ...toUpload), incompleteFront);
    expect(state).toMatchObject({ phase: 'finished', passport: true, frontTolerated: true });
  });
});

describe('server answers (docs/flow.md §8)', () => {
  it('"attempts exhausted" is the server\'s 429', () => {
    const decision = decideReadError('front', 429, errorTexts.attemptsExceeded);
    const state = run(start({ skipIntro: true }), ...toUpload, { type: 'readError', decision });
    expect(state).toMatchObject({ phase: 'exhausted', message: errorTexts.attemptsExceeded });
    expect(decideReadError('back', 429, undefined)).toEqual({ kind: 'exhausted', message: errorTexts.attemptsExceeded });
  });

  it("message_client when present, else the side's text, else the unreadable text", () => {
    expect(decideReadError('front', 422, 'Identificación no reconocida')).toEqual({ kind: 'failed', message: 'Identificación no reconocida' });
    expect(decideReadError('front', 422, undefined)).toEqual({ kind: 'failed', message: errorTexts.idFrontFailed });
    expect(decideReadError('back', 400, undefined)).toEqual({ kind: 'failed', message: errorTexts.idBackFailed });
    expect(decideReadError('back', 500, undefined)).toEqual({ kind: 'failed', message: errorTexts.idUnreadable });
  });

  it('no answer is a network block: the same image can be resent, no attempt counted', () => {
    const decision = decideReadError('front', null, undefined);
    expect(decision).toEqual({ kind: 'network', message: errorTexts.networkBlock });
    let state = run(start({ skipIntro: true }), ...toUpload, { type: 'readError', decision });
    expect(state).toMatchObject({ phase: 'networkError', message: errorTexts.networkBlock });
    expect(state.attempts.front).toBe(0);
    state = run(state, { type: 'resend' });
    expect(state).toMatchObject({ phase: 'uploading', message: null });
  });

  it('a failed read counts an attempt on its side (display mirror)', () => {
    let state = run(start({ skipIntro: true }), ...toUpload);
    state = read(state, ineFront);
    state = run(state, { type: 'nextSide' }, ...toUpload, { type: 'readError', decision: decideReadError('back', 422, undefined) });
    expect(state).toMatchObject({ phase: 'failed', message: errorTexts.idBackFailed });
    expect(state.attempts).toEqual({ front: 0, back: 1 });
  });

  it('a retake after a back failure resumes at the back with the counts kept', () => {
    const state = start({ side: 'back', intents: { id_frontal: 1, id_reverso: 2, id_frontal_tolerado: true } });
    expect(state).toMatchObject({ side: 'back', phase: 'camera', attempts: { front: 1, back: 2 }, frontTolerated: true });
  });
});

describe('on-device check (no upload, no attempt)', () => {
  it('a failing check asks for a retake and keeps the issues', () => {
    let state = run(start({ skipIntro: true }), { type: 'capture' }, { type: 'checked', ok: false, issues: ['document', 'blur'] });
    expect(state).toMatchObject({ phase: 'retake', quality: { issues: ['document', 'blur'], rejections: 1 } });
    state = run(state, { type: 'retake' });
    expect(state.phase).toBe('camera');
    expect(state.attempts).toEqual({ front: 0, back: 0 });
  });

  it(`after ${qualityOverrideAfter} rejections in a row the capture may be sent anyway`, () => {
    let state = start({ skipIntro: true });
    const reject: CaptureEvent[] = [{ type: 'capture' }, { type: 'checked', ok: false, issues: ['blur'] }];
    state = run(state, ...reject);
    expect(run(state, { type: 'override' }).phase).toBe('retake');
    state = run(state, { type: 'retake' }, ...reject, { type: 'retake' }, ...reject);
    expect(state.quality.rejections).toBe(qualityOverrideAfter);
    state = run(state, { type: 'override' });
    expect(state).toMatchObject({ phase: 'adjust', documentFoundOnDevice: true });
    // A passing check resets the count.
    const passed = run(start({ skipIntro: true }), ...reject, { type: 'retake' }, { type: 'capture' }, { type: 'checked', ok: true, issues: [] });
    expect(passed.quality.rejections).toBe(0);
  });

  it('ignores events that do not belong to the phase', () => {
    const intro = start();
    expect(run(intro, { type: 'capture' })).toBe(intro);
    expect(run(intro, { type: 'save' })).toBe(intro);
    const camera = start({ skipIntro: true });
    expect(run(camera, { type: 'read', decision: { kind: 'toBack', dataOk: true, tolerated: false } })).toBe(camera);
  });

  it('a camera failure shows the camera overlay', () => {
    expect(run(start(), { type: 'cameraFailed', kind: 'permissionDenied' })).toMatchObject({ phase: 'cameraError', cameraError: 'permissionDenied' });
    const uploading = run(start({ skipIntro: true }), ...toUpload);
    expect(run(uploading, { type: 'cameraFailed', kind: 'inUse' })).toBe(uploading);
  });
});

describe('analysis checklist follows the real progress', () => {
  it('front: document, borders, face, text, data', () => {
    const sending = checklist('front', { stage: 'sending', loaded: 0, total: 10 }, true);
    expect(sending.map((item) => item.id)).toEqual(['document', 'borders', 'face', 'text', 'data']);
    expect(sending.map((item) => item.status)).toEqual(['done', 'done', 'active', 'pending', 'pending']);
    const processing = checklist('front', { stage: 'processing', loaded: 10, total: 10 }, true);
    expect(processing.map((item) => item.status)).toEqual(['done', 'done', 'active', 'active', 'active']);
    const received = checklist('front', { stage: 'received', loaded: 10, total: 10 }, true);
    expect(received.every((item) => item.status === 'done')).toBe(true);
  });

  it('back: the machine-readable zone instead of the face', () => {
    expect(checklist('back', { stage: 'sending', loaded: 0, total: null }, true)[2]?.id).toBe('mrz');
  });

  it('a capture sent without the on-device check passing ticks nothing before the answer', () => {
    expect(checklist('front', { stage: 'processing', loaded: 1, total: 1 }, false).some((item) => item.status === 'done')).toBe(false);
  });

  it('unknown upload size has no percentage', () => {
    expect(uploadPercent({ stage: 'sending', loaded: 10, total: null })).toBeNull();
    expect(uploadPercent({ stage: 'processing', loaded: 10, total: null })).toBe(100);
  });
});
