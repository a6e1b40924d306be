/**
 * Pure camera decisions of docs/flow.md §5 and §9 (no browser globals): which camera, which resolution, and
 * what a getUserMedia failure means.
 */

/** The parts of MediaDeviceInfo the choice needs. */
export interface DeviceLike {
  kind: string;
  deviceId: string;
  label: string;
}

/** Spec §5: "Back camera chosen when a device label contains back and 0" (Android names it "camera2 0, facing back"). */
export function findBackCamera(devices: readonly DeviceLike[]): DeviceLike | null {
  return (
    devices.find((device) => {
      if (device.kind !== 'videoinput') return false;
      const label = device.label.toLowerCase();
      return label.includes('back') && label.includes('0');
    }) ?? null
  );
}

export function videoInputCount(devices: readonly DeviceLike[]): number {
  return devices.filter((device) => device.kind === 'videoinput').length;
}

/** Spec §9 resolutions for the ID camera. */
export const documentResolution = {
  /** "highest resolution up to 4096x2160 when more than 2 cameras" (phones with several back lenses). */
  highest: { width: 4096, height: 2160 },
  ideal: { width: 1920, height: 1080 },
} as const;

/** Video constraints for the ID capture: the labelled back camera when known, else the environment-facing one. */
export function documentVideoConstraints(devices: readonly DeviceLike[]): MediaTrackConstraints {
  const back = findBackCamera(devices);
  const camera: MediaTrackConstraints = back ? { deviceId: { exact: back.deviceId } } : { facingMode: { ideal: 'environment' } };
  if (videoInputCount(devices) > 2) {
    const { width, height } = documentResolution.highest;
    return { ...camera, width: { ideal: width, max: width }, height: { ideal: height, max: height } };
  }
  const { width, height } = documentResolution.ideal;
  return { ...camera, width: { ideal: width }, height: { ideal: height } };
}

/** Labels are empty until the user has granted camera access once (then the choice can be refined). */
export function devicesHaveLabels(devices: readonly DeviceLike[]): boolean {
  return devices.some((device) => device.kind === 'videoinput' && device.label !== '');
}

/** Spec §8 camera error classes. */
export type CameraErrorKind = 'notFound' | 'inUse' | 'constraints' | 'permissionDenied' | 'emptyConstraints' | 'other';

/**
 * Classifies a getUserMedia failure by its DOMException name (older names included):
 * NotFoundError → not found, NotReadableError/TrackStartError → in use, OverconstrainedError → constraints,
 * NotAllowedError → permission denied, TypeError → empty constraints, anything else → other.
 */
export function classifyCameraError(error: unknown): CameraErrorKind {
  if (error instanceof CameraError) return error.kind;
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name ?? '') : '';
  switch (name) {
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return 'notFound';
    case 'NotReadableError':
    case 'TrackStartError':
      return 'inUse';
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'constraints';
    case 'NotAllowedError':
    case 'PermissionDeniedError':
      return 'permissionDenied';
    case 'TypeError':
      return 'emptyConstraints';
    default:
      return 'other';
  }
}

/** A camera failure found by the flow itself (no video track, no frames before the check timeout). */
export class CameraError extends Error {
  readonly kind: CameraErrorKind;

  constructor(kind: CameraErrorKind, message: string) {
    super(message);
    this.name = 'CameraError';
    this.kind = kind;
  }
}

/** The overlay's two messages: permission instructions, or "the camera is used elsewhere" for every other class. */
export function cameraErrorNeedsPermission(kind: CameraErrorKind): boolean {
  return kind === 'permissionDenied';
}

/** The audit record's dato for a camera failure (no device labels: they can identify the device owner). */
export function cameraErrorDatum(kind: CameraErrorKind, error: unknown): string {
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name ?? '') : '';
  const message = error instanceof Error ? error.message : String(error);
  return JSON.stringify({ camara: kind, name, message: message.slice(0, 300) });
}
