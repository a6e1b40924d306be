import { stopStream } from '../../media/camera';
import { CameraError, findBackCamera, type DeviceLike } from '../../media/camera-select';

/**
 * A page of small print needs more pixels than an ID card, and its own shape: the proof camera asks only for a
 * wide frame (ideal 1920) and no height, so the browser keeps the camera's own aspect (portrait on a phone held
 * upright) instead of cropping the page to 16:9.
 */
export function proofVideoConstraints(devices: readonly DeviceLike[]): MediaTrackConstraints {
  const back = findBackCamera(devices);
  const camera: MediaTrackConstraints = back ? { deviceId: { exact: back.deviceId } } : { facingMode: { ideal: 'environment' } };
  return { ...camera, width: { ideal: 1920 } };
}

export async function openProofCamera(): Promise<MediaStream> {
  const devices = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
  if (!devices?.getUserMedia) throw new TypeError('navigator.mediaDevices.getUserMedia is not available');
  const list = await devices.enumerateDevices().catch(() => [] as DeviceLike[]);
  const stream = await devices.getUserMedia({ video: proofVideoConstraints(list), audio: false });
  if (stream.getVideoTracks().length === 0) {
    stopStream(stream);
    throw new CameraError('inUse', 'the camera stream has no video track');
  }
  return stream;
}
