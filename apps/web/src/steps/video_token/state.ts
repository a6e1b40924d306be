import { readOcr } from '../../session/idCapture';
import { readJson, writeJson, type StateStorage } from '../../session/storage';
import type { VideoAttempts } from './outcomes';
import { isDigitSchedule, type DigitSchedule } from './schedule';

/**
 * Spec §3 "Video token": the code (4 digits at least) with its creation and expiry, as the otp call returns it,
 * and (project) the schedule of its digits.
 */
export interface Codes {
  code: string;
  created: string;
  expire: string;
  schedule: DigitSchedule;
}

export function isCodes(value: unknown): value is Codes {
  if (typeof value !== 'object' || value === null) return false;
  const { code, created, expire, schedule } = value as Record<string, unknown>;
  return typeof code === 'string' && /^\d{4,}$/.test(code) && typeof created === 'string' && typeof expire === 'string' && isDigitSchedule(schedule);
}

/** intentsData key of the face video's attempts (the server's step name). */
const attemptsKey = 'video_token';

function rawIntents(storage: StateStorage): Record<string, unknown> {
  const stored = readJson(storage, 'intentsData');
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
}

/** Spec §4 "Lockout": bloqueo 'true' with the stored time not passed. time is epoch ms or an ISO date. */
export function lockActive(storage: StateStorage, now: number): boolean {
  if (storage.get('bloqueo') !== 'true') return false;
  const raw = storage.get('time') ?? '';
  const until = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  return Number.isFinite(until) && until > now;
}

/** The attempts used so far (intentsData.video_token); at the maximum while a lock is active (docs/flow.md §4). */
export function readVideoAttempts(storage: StateStorage, max: number, now: number): VideoAttempts {
  if (lockActive(storage, now)) return { used: max, max };
  const used = rawIntents(storage)[attemptsKey];
  return { used: typeof used === 'number' && Number.isInteger(used) && used > 0 ? Math.min(used, max) : 0, max };
}

export function writeVideoAttempts(storage: StateStorage, attempts: VideoAttempts): void {
  writeJson(storage, 'intentsData', { ...rawIntents(storage), [attemptsKey]: attempts.used });
}

/** Spec §3 "Video token ... a list stored as codes": the newest last. */
export function storeCodes(storage: StateStorage, codes: Codes): void {
  const stored = readJson(storage, 'codes');
  const list = Array.isArray(stored) ? stored : [];
  writeJson(storage, 'codes', [...list, codes].slice(-10));
}

/** Spec §3 "Face result": match and liveness, plus the document link of the result payload. */
export function storeFaceMatch(storage: StateStorage, result: { match: boolean; liveness: boolean | string; documentLink?: string | undefined }): void {
  writeJson(storage, 'face', { match: result.match, liveness: result.liveness });
  if (result.documentLink) storage.set('enlace', result.documentLink);
}

/** Spec §3 "On no match defaults". */
export const noMatchFace = {
  match: false,
  gender: 'Indeterminado',
  age: 0,
  expressions: { happy: 0 },
  liveness: 'No superada',
} as const;

export function storeNoMatch(storage: StateStorage): void {
  writeJson(storage, 'face', noMatchFace);
}

/** identificacion_pasaporte of the face-video calls: the front read was a passport. */
export function isPassportCapture(storage: StateStorage): boolean {
  const front = readOcr(storage, 'ocrFront');
  const flag = front?.identificacionPasaporte;
  return flag === true || flag === 'true';
}
