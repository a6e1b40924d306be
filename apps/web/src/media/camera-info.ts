import type { CameraInfo } from '@kyc/contracts';

/** The parts of a video track read here (MediaStreamTrack in the browser; a plain object in tests). */
export interface TrackLike {
  label: string;
  getSettings(): { width?: number; height?: number; frameRate?: number; facingMode?: string; deviceId?: string };
}

async function hashDeviceId(deviceId: string): Promise<string | undefined> {
  const subtle = typeof crypto !== 'undefined' ? crypto.subtle : undefined;
  if (!subtle || !deviceId) return undefined;
  try {
    const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(deviceId)));
    return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return undefined;
  }
}

/**
 * The camera of the face video as the server records it (`info_camara`, issue 18): the track's label and its
 * settings (size, frame rate, facing mode); the device id only as a short SHA-256 (it is a per-site identifier of
 * the person's device). Null when there is no video track.
 */
export async function describeCamera(track: TrackLike | undefined): Promise<CameraInfo | null> {
  if (!track) return null;
  let settings: ReturnType<TrackLike['getSettings']> = {};
  try {
    settings = track.getSettings();
  } catch {
    // Some older browsers lack getSettings: the label alone.
  }
  const info: CameraInfo = { label: (track.label ?? '').slice(0, 200) };
  const whole = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
  const width = whole(settings.width);
  const height = whole(settings.height);
  if (width !== undefined) info.width = width;
  if (height !== undefined) info.height = height;
  if (typeof settings.frameRate === 'number' && Number.isFinite(settings.frameRate) && settings.frameRate >= 0) info.frameRate = Math.round(settings.frameRate * 100) / 100;
  if (typeof settings.facingMode === 'string' && settings.facingMode) info.facingMode = settings.facingMode.slice(0, 40);
  const hashed = await hashDeviceId(settings.deviceId ?? '');
  if (hashed) info.deviceId = hashed;
  return info;
}

/** The multipart / start-message value: JSON, or undefined when nothing is known. */
export function cameraInfoField(info: CameraInfo | null): string | undefined {
  return info ? JSON.stringify(info) : undefined;
}
