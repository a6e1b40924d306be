import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { createRef } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserRouter, Outlet, RouterProvider, useLocation } from '../../navigation/router';
import { setGrantorParams } from '../../session/grantor';
import { bodiesOf, startPageOrigin } from '../../test-support/page-origin';
import { texts as faceCopy } from '../../i18n/es-MX/video_token';
import { faceReducer, initialFaceState, type FaceEvent, type FaceState } from './face-machine';
import { FaceVideo, FaceVideoScreen } from './FaceVideo';
import { attemptRules, describeFailure } from './outcomes';
import type { DigitSchedule } from './schedule';
import type { FaceActions, FaceVideoModel } from './useFaceVideo';

const schedule: DigitSchedule = { digitsMs: [1500, 2600, 3700, 4800], stopMs: 8000, prompts: [{ motion: 'right', atMs: 6500 }] };
const rules = attemptRules('main', 3);
const frame = { width: 640, height: 480 };

function stateAfter(events: FaceEvent[], used = 0): FaceState {
  return events.reduce(faceReducer, initialFaceState({ rules, attempts: { used, max: rules.max } }));
}

const toReading: FaceEvent[] = [
  { type: 'continue' },
  { type: 'cameraReady', frame },
  { type: 'attemptStarted' },
  { type: 'photo' },
  { type: 'token' },
  { type: 'codeReceived', code: '4821', schedule },
  { type: 'reading' },
];

function actionsSpy(): FaceActions {
  return {
    continue: vi.fn(),
    cancel: vi.fn(),
    dismissCancel: vi.fn(),
    confirmCancel: vi.fn(),
    dialogPrimary: vi.fn(),
    abandon: vi.fn(),
    acknowledgeFailure: vi.fn(),
    cameraReady: vi.fn(),
    cameraFailed: vi.fn(),
  };
}

function show(state: FaceState, path: FaceVideoModel['path'] = 'grabacion') {
  const actions = actionsSpy();
  const model: FaceVideoModel = { step: 'video_token', path, state, stream: null, videoRef: createRef(), actions };
  render(<FaceVideoScreen model={model} />);
  return actions;
}

const prompt = () => document.querySelector('.face-video__prompt') as HTMLElement;

afterEach(cleanup);

describe('face video screen, state by state', () => {
  it('intro: the title, the tips and the two buttons', () => {
    const actions = show(stateAfter([]));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Confirmación de identidad');
    expect(screen.getByText(faceCopy.tips.backlight)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'CONTINUAR' }));
    expect(actions.continue).toHaveBeenCalledOnce();
  });

  it('waiting for the camera: the camera is starting and the positioning prompt shows', () => {
    show(stateAfter([{ type: 'continue' }]));
    expect(document.querySelector('.camera-stage__loading')).not.toBeNull();
    expect(prompt().dataset.stage).toBe('position');
    expect(prompt().textContent).toBe('Ubica tu rostro de frente para empezar');
  });

  it('photo and code request: the stage texts, the spinner while the code comes', () => {
    show(stateAfter(toReading.slice(0, 4)));
    expect(prompt().textContent).toBe(faceCopy.photo);
    cleanup();
    show(stateAfter(toReading.slice(0, 5)));
    expect(prompt().textContent).toBe(faceCopy.token);
    expect(document.querySelector('.face-video__spinner')).not.toBeNull();
  });

  it('stability: the reading title over the hold-still prompt', () => {
    show(stateAfter(toReading.slice(0, 6)));
    expect(prompt().textContent).toBe(faceCopy.read + faceCopy.stability);
  });

  it('reading: each digit with its spoken label and the dots lit so far', () => {
    show(stateAfter([...toReading, { type: 'tick', elapsed: 2600 }]));
    const digits = document.querySelector('.face-video__digits') as HTMLElement;
    expect(within(digits).getByText('Número 2 de 4: 8')).toBeTruthy();
    expect(digits.querySelector('.face-video__digit')?.textContent).toBe('8');
    expect(digits.querySelectorAll('.face-video__dot--on')).toHaveLength(2);
    expect(document.querySelector('.face-guide--active')).not.toBeNull();
    cleanup();
    show(stateAfter([...toReading, { type: 'tick', elapsed: 5800 }]));
    expect(screen.getByText('Lectura terminada')).toBeTruthy();
  });

  it('reading: the head-turn prompt replaces the digits (motion prompts)', () => {
    show(stateAfter([...toReading, { type: 'tick', elapsed: 6500 }]));
    expect(prompt().textContent).toBe('Ahora gira la cabeza hacia tu derecha');
    expect(document.querySelector('.face-video__digits')).toBeNull();
  });

  it('uploading: processing, the spinner, and Cancelar disabled', () => {
    show(stateAfter([...toReading, { type: 'tick', elapsed: 9000 }]));
    expect(prompt().dataset.stage).toBe('processing');
    expect(prompt().textContent).toBe('Procesando, gracias por tu paciencia');
    expect((screen.getByRole('button', { name: 'CANCELAR' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('retry: Lo sentimos with the message, the hint, the attempts left and Reintentar', () => {
    const failure = describeFailure({ kind: 'token', status: 400, messageClient: 'Ubica tu rostro en el area marcada' });
    const actions = show(stateAfter([...toReading, { type: 'tick', elapsed: 1500 }, { type: 'failed', failure: describeFailure({ kind: 'watchdog' }) }]));
    expect(screen.getByTestId('face-error').textContent).toBe(describeFailure({ kind: 'watchdog' }).message);
    expect(screen.getByText('Te quedan 2 intentos.')).toBeTruthy();
    expect(prompt().textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar', hidden: true }));
    expect(actions.dialogPrimary).toHaveBeenCalledOnce();
    cleanup();
    show(stateAfter([...toReading, { type: 'failed', failure }]));
    expect(screen.getByText(failure.hint ?? '')).toBeTruthy();
  });

  it('after a no-match the dialog offers Reiniciar', () => {
    show(stateAfter([...toReading, { type: 'failed', failure: describeFailure({ kind: 'response', status: 200 }) }]));
    expect(screen.getByRole('button', { name: 'Reiniciar', hidden: true })).toBeTruthy();
    expect(screen.getByText('Te quedan 2 intentos.')).toBeTruthy();
  });

  it('locked: the attempts used up show Proceso no exitoso with ENTENDIDO', () => {
    const actions = show(stateAfter([], 3));
    expect(screen.getByRole('alert').textContent).toBe(faceCopy.attemptsExceeded);
    fireEvent.click(screen.getByRole('button', { name: 'ENTENDIDO' }));
    expect(actions.acknowledgeFailure).toHaveBeenCalledOnce();
  });

  it('done: the match confirmed, Cancelar disabled', () => {
    show(stateAfter([...toReading, { type: 'tick', elapsed: 9000 }, { type: 'matched' }]));
    expect(prompt().textContent).toBe('Listo, confirmamos tu identidad.');
    expect((screen.getByRole('button', { name: 'CANCELAR' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('camera refused: the permission instructions', () => {
    show(stateAfter([{ type: 'continue' }, { type: 'cameraFailed', kind: 'permissionDenied' }]));
    expect(screen.getByRole('alert').dataset.cameraError).toBe('permissionDenied');
  });
});

function MainFlow() {
  return <FaceVideo flow="main" />;
}

function Elsewhere() {
  return <p data-testid="elsewhere">{useLocation().pathname}</p>;
}

function RouteError() {
  return <p>error</p>;
}

/** The whole step in the flow's router, with the browser's camera API as the test's document has it. */
function mountStep(params: { idCampo: string; valor: string }[]) {
  setGrantorParams(params);
  page.open('/video_token');
  const router = createBrowserRouter([
    { id: 'video_token', path: 'video_token', Component: MainFlow },
    { id: 'pasos_configuracion', path: 'pasos_configuracion', Component: Elsewhere },
  ]);
  render(<RouterProvider router={router} Layout={Outlet} Fallback={() => null} ErrorScreen={RouteError} />);
}

let page: Awaited<ReturnType<typeof startPageOrigin>>;
beforeAll(async () => {
  page = await startPageOrigin();
});
afterAll(() => page.close());

describe('face video step with its hook', () => {
  const mediaDevices = Object.getOwnPropertyDescriptor(navigator, 'mediaDevices');
  beforeEach(() => {
    localStorage.clear();
    page.received.length = 0;
  });
  afterEach(() => {
    if (mediaDevices) Object.defineProperty(navigator, 'mediaDevices', mediaDevices);
    else Reflect.deleteProperty(navigator, 'mediaDevices');
    setGrantorParams(null);
  });

  function cameraAnswers(getUserMedia: () => Promise<MediaStream>) {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia, enumerateDevices: async () => [] } });
  }

  it('a refused camera permission shows the instructions after CONTINUAR', async () => {
    cameraAnswers(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    mountStep([{ idCampo: 'MODO_VIDEO_TOKEN', valor: 'tiempo_real' }]);
    fireEvent.click(await screen.findByRole('button', { name: 'CONTINUAR' }));
    expect((await screen.findByRole('alert')).dataset.cameraError).toBe('permissionDenied');
    // The refusal is audited as the step's error.
    await vi.waitFor(() => expect(bodiesOf(page.received)).toContainEqual(expect.objectContaining({ paso: 'video_token', tipo: 'Error' })));
  });

  it('waits for the camera while the browser asks for it', async () => {
    cameraAnswers(() => new Promise<MediaStream>(() => undefined));
    mountStep([{ idCampo: 'MODO_VIDEO_TOKEN', valor: 'tiempo_real' }]);
    fireEvent.click(await screen.findByRole('button', { name: 'CONTINUAR' }));
    expect(await screen.findByText('Ubica tu rostro de frente para empezar')).toBeTruthy();
    expect(document.querySelector('.camera-stage__loading')).not.toBeNull();
  });

  it('starts on Proceso no exitoso when the stored attempts are used up', async () => {
    localStorage.setItem('intentsData', JSON.stringify({ video_token: 3 }));
    mountStep([{ idCampo: 'MODO_VIDEO_TOKEN', valor: 'tiempo_real' }]);
    expect(await screen.findByRole('button', { name: 'ENTENDIDO' })).toBeTruthy();
  });

  it('the recorder path without MediaRecorder goes to the configuration steps', async () => {
    await act(async () => mountStep([{ idCampo: 'MODO_VIDEO_TOKEN', valor: 'grabacion' }]));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('/pasos_configuracion');
  });
});
