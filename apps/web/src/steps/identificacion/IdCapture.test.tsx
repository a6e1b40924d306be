import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { errorTexts } from '@kyc/contracts/texts';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserRouter, Outlet, RouterProvider } from '../../navigation/router';
import { bodiesOf, startPageOrigin } from '../../test-support/page-origin';
import { texts as captureTexts } from '../../i18n/es-MX/capture';
import { texts } from '../../i18n/es-MX/identificacion';
import { captureReducer, decideReadError, initialCaptureState, type CaptureEvent, type CaptureState } from './capture-machine';
import { Component } from './index';
import { IdCaptureScreen } from './IdCaptureScreen';
import type { Capture, Cropped, IdCaptureActions, IdCaptureModel } from './useIdCapture';

const intents = { id_frontal: 0, id_reverso: 0, id_frontal_tolerado: false };

function stateAfter(events: CaptureEvent[], start: Partial<Parameters<typeof initialCaptureState>[0]> = {}): CaptureState {
  return events.reduce(captureReducer, initialCaptureState({ passport: false, side: 'front', skipIntro: false, intents, ...start }));
}

const toVerify: CaptureEvent[] = [{ type: 'continue' }, { type: 'capture' }, { type: 'checked', ok: true, issues: [] }, { type: 'adjusted' }];
const toUpload: CaptureEvent[] = [...toVerify, { type: 'save' }];

function actionsSpy(): IdCaptureActions {
  return {
    continue: vi.fn(),
    cancel: vi.fn(),
    capture: vi.fn(),
    retake: vi.fn(),
    useAnyway: vi.fn(),
    adjusted: vi.fn(),
    save: vi.fn(),
    resend: vi.fn(),
    acknowledgeFailure: vi.fn(),
    cameraFailed: vi.fn(),
  };
}

function capture(): Capture {
  const frame = document.createElement('canvas');
  frame.width = 1280;
  frame.height = 720;
  return { frame, mask: { x: 160, y: 90, width: 960, height: 540 }, url: 'blob:capture' };
}

const cropped: Cropped = { blob: new Blob(['jpeg']), url: 'blob:cropped' };

function show(state: CaptureState, extra: Partial<IdCaptureModel> = {}) {
  const actions = actionsSpy();
  const model: IdCaptureModel = {
    state,
    stream: null,
    videoRef: createRef(),
    format: state.passport ? 'id3' : 'id1',
    capture: capture(),
    cropped,
    adjusting: false,
    frontJustRead: false,
    actions,
    ...extra,
  };
  render(<IdCaptureScreen model={model} />);
  return actions;
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

afterEach(cleanup);

describe('ID capture screen, state by state', () => {
  it('intro: the spec title and CONTINUAR', () => {
    const actions = show(stateAfter([]));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tómale una foto al frente de tu identificación');
    fireEvent.click(button('CONTINUAR'));
    expect(actions.continue).toHaveBeenCalledOnce();
  });

  it('waiting for the camera: opening the camera, the capture button disabled until frames show', () => {
    show(stateAfter([{ type: 'continue' }]));
    expect(screen.getByText(captureTexts.camera.starting)).toBeTruthy();
    expect(button('CAPTURAR FRENTE').disabled).toBe(true);
    expect(screen.getByText(texts.camera.hintFront)).toBeTruthy();
  });

  it('capturing: PROCESANDO... and the hold-still note', () => {
    show(stateAfter([{ type: 'continue' }, { type: 'capture' }]));
    expect(button('PROCESANDO...').disabled).toBe(true);
    expect(screen.getByText(texts.camera.holdingStill)).toBeTruthy();
  });

  it('the back after the front: its title, and the front-read note', () => {
    show(stateAfter([], { side: 'back' }), { frontJustRead: true });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(texts.camera.titleBack);
    expect(screen.getByText(texts.camera.frontRead)).toBeTruthy();
    expect(button('CAPTURAR REVERSO')).toBeTruthy();
  });

  it('retake: the on-device issue, not sent; after three rejections the photo may be used anyway', () => {
    const blurred: CaptureEvent[] = [{ type: 'capture' }, { type: 'checked', ok: false, issues: ['blur'] }];
    show(stateAfter([{ type: 'continue' }, ...blurred]));
    expect(screen.getByRole('alert').textContent).toBe(texts.quality.blur);
    expect(screen.getByText('Esta foto no se envió ni contó como intento.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'USAR ESTA FOTO' })).toBeNull();
    cleanup();
    const thrice = stateAfter([{ type: 'continue' }, ...blurred, { type: 'retake' }, ...blurred, { type: 'retake' }, ...blurred]);
    const actions = show(thrice);
    fireEvent.click(button('USAR ESTA FOTO'));
    expect(actions.useAnyway).toHaveBeenCalledOnce();
  });

  it('adjust: the crop screen with AJUSTE LISTO', () => {
    show(stateAfter(toVerify.slice(0, 3)));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(captureTexts.adjust.title);
    expect(button('AJUSTE LISTO')).toBeTruthy();
  });

  it('verify: the cropped image and GUARDAR', () => {
    show(stateAfter(toVerify));
    expect((screen.getByAltText(captureTexts.verify.imageAlt) as HTMLImageElement).getAttribute('src')).toBe('blob:cropped');
    expect(screen.getByText(captureTexts.verify.confirm)).toBeTruthy();
  });

  it('uploading: the checklist and the percent sent, then the reading', () => {
    show(stateAfter([...toUpload, { type: 'progress', loaded: 50, total: 200 }]));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(captureTexts.analysis.titleFront);
    expect(screen.getByText(captureTexts.analysis.items.face)).toBeTruthy();
    expect((document.querySelector('progress') as HTMLProgressElement).value).toBe(25);
    cleanup();
    show(stateAfter([...toUpload, { type: 'uploaded' }]));
    expect(screen.getByText(captureTexts.analysis.sent)).toBeTruthy();
  });

  it('no answer: Sin conexión with REINTENTAR (the same image) and CAPTURAR DE NUEVO', () => {
    const actions = show(stateAfter([...toUpload, { type: 'readError', decision: decideReadError('front', null, undefined) }]));
    expect(screen.getByRole('alert').textContent).toBe(errorTexts.networkBlock);
    fireEvent.click(button('REINTENTAR'));
    expect(actions.resend).toHaveBeenCalledOnce();
    cleanup();
    show(stateAfter([...toUpload, { type: 'readError', decision: decideReadError('front', null, undefined) }]), { cropped: null });
    expect(button('REINTENTAR').disabled).toBe(true);
  });

  it('locked: the server refused another attempt; Proceso no exitoso with its message', () => {
    const actions = show(stateAfter([...toUpload, { type: 'readError', decision: decideReadError('front', 429, undefined) }]));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Proceso no exitoso');
    expect(screen.getByRole('alert').textContent).toBe(errorTexts.attemptsExceeded);
    fireEvent.click(button('ENTENDIDO'));
    expect(actions.acknowledgeFailure).toHaveBeenCalledOnce();
  });

  it('camera refused: the permission instructions', () => {
    show(stateAfter([{ type: 'continue' }, { type: 'cameraFailed', kind: 'permissionDenied' }]));
    expect(screen.getByRole('alert').dataset.cameraError).toBe('permissionDenied');
    expect(screen.getByText(captureTexts.cameraError.permissionSteps[0]!)).toBeTruthy();
  });

  it('done: the read side shows the checklist complete', () => {
    show(stateAfter([...toUpload, { type: 'read', decision: { kind: 'toBack', dataOk: true, tolerated: false } }]));
    expect(screen.getByText(captureTexts.analysis.read)).toBeTruthy();
  });
});

function RouteError() {
  return <p>error</p>;
}

let page: Awaited<ReturnType<typeof startPageOrigin>>;
beforeAll(async () => {
  page = await startPageOrigin();
});
afterAll(() => page.close());

/** The whole step in the flow's router, with the browser's camera API as the test's document has it. */
function mountStep() {
  page.open('/identificacion');
  const router = createBrowserRouter([{ id: 'identificacion', path: 'identificacion', Component }]);
  render(<RouterProvider router={router} Layout={Outlet} Fallback={() => null} ErrorScreen={RouteError} />);
}

describe('ID capture step with its hook', () => {
  const mediaDevices = Object.getOwnPropertyDescriptor(navigator, 'mediaDevices');
  beforeEach(() => {
    localStorage.clear();
    page.received.length = 0;
  });
  afterEach(() => {
    if (mediaDevices) Object.defineProperty(navigator, 'mediaDevices', mediaDevices);
    else Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  function cameraAnswers(getUserMedia: () => Promise<MediaStream>) {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia, enumerateDevices: async () => [] } });
  }

  it('a refused camera permission shows the instructions after CONTINUAR', async () => {
    cameraAnswers(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    mountStep();
    fireEvent.click(await screen.findByRole('button', { name: 'CONTINUAR' }));
    expect((await screen.findByRole('alert')).dataset.cameraError).toBe('permissionDenied');
    // The refusal is audited as the step's error.
    await vi.waitFor(() => expect(bodiesOf(page.received)).toContainEqual(expect.objectContaining({ paso: 'identificacion', tipo: 'Error' })));
  });

  it('a camera in use elsewhere shows the in-use text', async () => {
    cameraAnswers(() => Promise.reject(new DOMException('busy', 'NotReadableError')));
    mountStep();
    fireEvent.click(await screen.findByRole('button', { name: 'CONTINUAR' }));
    expect((await screen.findByRole('alert')).textContent).toContain(captureTexts.cameraError.inUse);
    await vi.waitFor(() => expect(bodiesOf(page.received)).toContainEqual(expect.objectContaining({ paso: 'identificacion', tipo: 'Error' })));
  });

  it('waits for the camera while the browser asks for it; the desktop tip shows first', async () => {
    cameraAnswers(() => new Promise<MediaStream>(() => undefined));
    mountStep();
    fireEvent.click(await screen.findByRole('button', { name: 'CONTINUAR' }));
    expect(await screen.findByText(captureTexts.camera.starting)).toBeTruthy();
    expect(screen.getByText(texts.hold.text)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'CAPTURAR FRENTE' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a retry from the error screen resumes the back at the camera when the front is stored', async () => {
    cameraAnswers(() => new Promise<MediaStream>(() => undefined));
    localStorage.setItem('ocrFront', JSON.stringify({ nombreCompleto: 'ANA PÉREZ' }));
    page.open('/identificacion');
    window.history.replaceState({ usr: { side: 'back', retry: true }, key: 'k', idx: 0 }, '', '/identificacion');
    const router = createBrowserRouter([{ id: 'identificacion', path: 'identificacion', Component }]);
    render(<RouterProvider router={router} Layout={Outlet} Fallback={() => null} ErrorScreen={RouteError} />);
    expect(await screen.findByRole('button', { name: 'CAPTURAR REVERSO' })).toBeTruthy();
  });
});
