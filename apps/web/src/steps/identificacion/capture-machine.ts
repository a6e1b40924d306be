import { frontDataCheck } from '@kyc/contracts/rules';
import { texts } from '../../i18n/es-MX/identificacion';
import type { CameraErrorKind } from '../../media/camera-select';
import type { QualityIssue } from '../../media/quality';
import { ocrText, type IdSide, type IntentsData, type OcrRecord } from '../../session/idCapture';

/**
 * The ID capture as a pure reducer (docs/flow.md §2 "ID capture", §4 "ID capture"): front first, then back;
 * incomplete front data tolerated once; passports (and migration forms, which have no back) skip the back;
 * the server's 429 ends the capture. The screen runs the camera, the upload and the storage, and feeds
 * the outcomes in as events.
 */
export type CapturePhase =
  /** Instructions before the camera opens. */
  | 'intro'
  /** Live view, waiting for CAPTURAR FRENTE / CAPTURAR REVERSO. */
  | 'camera'
  /** Capture delay, frame grab and on-device check ('PROCESANDO...'). */
  | 'capturing'
  /** The on-device check failed: tips and a retake; nothing was uploaded, no attempt spent. */
  | 'retake'
  /** Crop/adjust screen. */
  | 'adjust'
  /** Clarity confirmation and GUARDAR. */
  | 'verify'
  /** Upload and reading, with the analysis checklist. */
  | 'uploading'
  /** No answer from the server: the same image can be sent again. */
  | 'networkError'
  /** The front was read; the back comes next. */
  | 'sideDone'
  /** The server or the data rule rejected the read: the error screen takes over. */
  | 'failed'
  /** Every side needed is read. */
  | 'finished'
  /** The server refused another attempt (429). */
  | 'exhausted'
  | 'cameraError';

export type UploadStage = 'sending' | 'processing' | 'received';

export interface CaptureState {
  side: IdSide;
  phase: CapturePhase;
  /** Single-sided document: known from the router state, or from the front read's flags. */
  passport: boolean;
  /** Mirror of the server's counts, for display only (intentsData). */
  attempts: { front: number; back: number };
  frontTolerated: boolean;
  /** Issues of the last on-device check, and how many checks in a row failed for this side. */
  quality: { issues: QualityIssue[]; rejections: number };
  /** Whether the image being sent passed the on-device document check (ticks the first checklist items). */
  documentFoundOnDevice: boolean;
  upload: { stage: UploadStage; loaded: number; total: number | null };
  /** What the user must read (error screens). */
  message: string | null;
  /** Why a read was rejected (audit), e.g. 'Datos incompletos'. */
  reason: string | null;
  cameraError: CameraErrorKind | null;
}

/** After this many on-device rejections in a row, the user may send the capture anyway (the server decides). */
export const qualityOverrideAfter = 3;

export interface CaptureStart {
  passport: boolean;
  /** Resume at the back (coming back from /error_pantalla after a failed back read with the front stored). */
  side: IdSide;
  /** Skip the intro (a retake after an error). */
  skipIntro: boolean;
  intents: IntentsData;
}

export function initialCaptureState(start: CaptureStart): CaptureState {
  return {
    side: start.side,
    phase: start.skipIntro || start.side === 'back' ? 'camera' : 'intro',
    passport: start.passport,
    attempts: { front: start.intents.id_frontal, back: start.intents.id_reverso },
    frontTolerated: start.intents.id_frontal_tolerado,
    quality: { issues: [], rejections: 0 },
    documentFoundOnDevice: false,
    upload: { stage: 'sending', loaded: 0, total: null },
    message: null,
    reason: null,
    cameraError: null,
  };
}

function truthy(value: OcrRecord[string] | undefined): boolean {
  return value === true || (typeof value === 'string' && ['true', 'verdadero'].includes(value.trim().toLowerCase()));
}

/** Passports and migration forms are read from one side only. */
export function isSingleSided(ocrFront: OcrRecord, passportState: boolean): boolean {
  return passportState || truthy(ocrFront.identificacionPasaporte) || truthy(ocrFront.identificacionMigratoria);
}

export type ReadDecision =
  /** Store the front (dataOk false when tolerated) and go on to the back. */
  | { kind: 'toBack'; dataOk: boolean; tolerated: boolean }
  /** Store the side and finish; passport: the capture was single-sided. */
  | { kind: 'finished'; side: IdSide; dataOk: boolean; tolerated: boolean; passport: boolean }
  /** The data rule rejected the front: counts as an attempt. */
  | { kind: 'rejected'; reason: string; message: string };

/**
 * What a successful answer means (docs/flow.md §4): the front is acceptable per frontDataCheck; incomplete or
 * badly formatted front data is tolerated once, then it counts as an attempt and shows an error.
 */
export function decideRead(state: Pick<CaptureState, 'side' | 'passport' | 'frontTolerated'>, ocrData: OcrRecord): ReadDecision {
  if (state.side === 'back') return { kind: 'finished', side: 'back', dataOk: true, tolerated: false, passport: false };
  const check = frontDataCheck({
    nombreCompleto: ocrText(ocrData, 'nombreCompleto'),
    curp: ocrText(ocrData, 'curp'),
    dni: ocrText(ocrData, 'dni'),
  });
  const passport = isSingleSided(ocrData, state.passport);
  if (!check.ok && state.frontTolerated) {
    return { kind: 'rejected', reason: check.reason, message: texts.errors.unreadable };
  }
  const tolerated = !check.ok;
  return passport ? { kind: 'finished', side: 'front', dataOk: check.ok, tolerated, passport: true } : { kind: 'toBack', dataOk: check.ok, tolerated };
}

export type ErrorDecision = { kind: 'exhausted'; message: string } | { kind: 'network'; message: string } | { kind: 'failed'; message: string };

/**
 * What a failed call means (docs/flow.md §8): 429 is the server's attempts limit; no answer is a network block;
 * otherwise the server's message_client, else the side's text (4xx) or the unreadable-data text.
 */
export function decideReadError(side: IdSide, status: number | null, messageClient: string | undefined): ErrorDecision {
  if (status === 429) return { kind: 'exhausted', message: messageClient ?? texts.errors.attemptsExceeded };
  if (status === null) return { kind: 'network', message: texts.errors.network };
  if (messageClient) return { kind: 'failed', message: messageClient };
  if (status >= 400 && status < 500) return { kind: 'failed', message: side === 'front' ? texts.errors.front : texts.errors.back };
  return { kind: 'failed', message: texts.errors.unreadable };
}

export type CaptureEvent =
  | { type: 'continue' }
  | { type: 'capture' }
  | { type: 'checked'; ok: boolean; issues: QualityIssue[] }
  | { type: 'override' }
  | { type: 'retake' }
  | { type: 'adjusted' }
  | { type: 'save' }
  | { type: 'progress'; loaded: number; total: number | null }
  | { type: 'uploaded' }
  | { type: 'read'; decision: ReadDecision }
  | { type: 'readError'; decision: ErrorDecision }
  | { type: 'resend' }
  | { type: 'nextSide' }
  | { type: 'cameraFailed'; kind: CameraErrorKind };

const sending = { stage: 'sending', loaded: 0, total: null } as const;

function count(state: CaptureState): CaptureState['attempts'] {
  return { ...state.attempts, [state.side]: state.attempts[state.side] + 1 };
}

/** The next state; events that make no sense in the current phase leave it unchanged. */
export function captureReducer(state: CaptureState, event: CaptureEvent): CaptureState {
  switch (event.type) {
    case 'continue':
      return state.phase === 'intro' ? { ...state, phase: 'camera' } : state;
    case 'capture':
      return state.phase === 'camera' ? { ...state, phase: 'capturing', message: null } : state;
    case 'checked': {
      if (state.phase !== 'capturing') return state;
      if (event.ok) return { ...state, phase: 'adjust', quality: { issues: [], rejections: 0 }, documentFoundOnDevice: true };
      return { ...state, phase: 'retake', quality: { issues: event.issues, rejections: state.quality.rejections + 1 } };
    }
    case 'override':
      return state.phase === 'retake' && state.quality.rejections >= qualityOverrideAfter ? { ...state, phase: 'adjust', documentFoundOnDevice: !state.quality.issues.includes('document') } : state;
    case 'retake':
      return ['retake', 'adjust', 'verify', 'networkError'].includes(state.phase) ? { ...state, phase: 'camera', message: null } : state;
    case 'adjusted':
      return state.phase === 'adjust' ? { ...state, phase: 'verify' } : state;
    case 'save':
      return state.phase === 'verify' ? { ...state, phase: 'uploading', upload: sending, message: null } : state;
    case 'resend':
      return state.phase === 'networkError' ? { ...state, phase: 'uploading', upload: sending, message: null } : state;
    case 'progress':
      return state.phase === 'uploading' && state.upload.stage === 'sending' ? { ...state, upload: { stage: 'sending', loaded: event.loaded, total: event.total } } : state;
    case 'uploaded':
      return state.phase === 'uploading' ? { ...state, upload: { ...state.upload, stage: 'processing' } } : state;
    case 'read': {
      if (state.phase !== 'uploading') return state;
      const received = { ...state.upload, stage: 'received' as const };
      const decision = event.decision;
      switch (decision.kind) {
        case 'toBack':
          return { ...state, phase: 'sideDone', upload: received, frontTolerated: state.frontTolerated || decision.tolerated };
        case 'finished':
          return {
            ...state,
            phase: 'finished',
            upload: received,
            passport: state.passport || decision.passport,
            frontTolerated: state.frontTolerated || decision.tolerated,
          };
        case 'rejected':
          return { ...state, phase: 'failed', attempts: count(state), message: decision.message, reason: decision.reason };
      }
      return state;
    }
    case 'readError': {
      if (state.phase !== 'uploading') return state;
      const decision = event.decision;
      switch (decision.kind) {
        case 'exhausted':
          return { ...state, phase: 'exhausted', message: decision.message };
        case 'network':
          return { ...state, phase: 'networkError', message: decision.message };
        case 'failed':
          return { ...state, phase: 'failed', attempts: count(state), message: decision.message, reason: null };
      }
      return state;
    }
    case 'nextSide':
      return state.phase === 'sideDone' ? { ...state, side: 'back', phase: 'camera', quality: { issues: [], rejections: 0 }, message: null, reason: null } : state;
    case 'cameraFailed':
      // A camera lost while a read is under way does not interrupt it; the next camera view reports it.
      return ['uploading', 'sideDone', 'finished', 'failed', 'exhausted'].includes(state.phase) ? state : { ...state, phase: 'cameraError', cameraError: event.kind };
  }
}

/** The intentsData to store after a state change (display mirror of the attempts, and the tolerance). */
export function intentsOf(state: CaptureState): IntentsData {
  return { id_frontal: state.attempts.front, id_reverso: state.attempts.back, id_frontal_tolerado: state.frontTolerated };
}

export type ChecklistStatus = 'pending' | 'active' | 'done';

export interface ChecklistItem {
  id: 'document' | 'borders' | 'face' | 'mrz' | 'text' | 'data';
  status: ChecklistStatus;
}

/**
 * The analysis checklist, tied to real progress: the document and its borders were found on the device
 * (done from the start when the on-device check passed); the rest is the server's work, in progress while
 * the image travels and is read, and done only when the answer has arrived.
 */
export function checklist(side: IdSide, upload: CaptureState['upload'], documentFoundOnDevice: boolean): ChecklistItem[] {
  const received = upload.stage === 'received';
  const local: ChecklistStatus = documentFoundOnDevice || received ? 'done' : 'active';
  const server: ChecklistStatus = received ? 'done' : 'active';
  const sent: ChecklistStatus = received ? 'done' : upload.stage === 'processing' ? 'active' : 'pending';
  return [
    { id: 'document', status: local },
    { id: 'borders', status: local },
    { id: side === 'front' ? 'face' : 'mrz', status: server },
    { id: 'text', status: sent },
    { id: 'data', status: sent },
  ];
}

/** Upload progress in whole percent, or null when the size is unknown. */
export function uploadPercent(upload: CaptureState['upload']): number | null {
  if (upload.stage !== 'sending') return 100;
  if (!upload.total) return null;
  return Math.min(100, Math.round((upload.loaded / upload.total) * 100));
}
