import { CameraError, devicesHaveLabels, documentVideoConstraints, findBackCamera, type DeviceLike } from './camera-select';

/** Spec §9: "camera check timeout 3.5 s": the stream must show a frame within this time. */
export const cameraCheckTimeoutMs = 3500;

function mediaDevices(): MediaDevices {
  const devices = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
  // Missing outside a secure context: the same class as a call without usable constraints.
  if (!devices?.getUserMedia) throw new TypeError('navigator.mediaDevices.getUserMedia is not available');
  return devices;
}

async function listDevices(devices: MediaDevices): Promise<DeviceLike[]> {
  try {
    return await devices.enumerateDevices();
  } catch {
    return [];
  }
}

export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Spec §5: "Camera must have at least one video track else the in-use error shows." */
function assertVideoTrack(stream: MediaStream): MediaStream {
  if (stream.getVideoTracks().length === 0) {
    stopStream(stream);
    throw new CameraError('inUse', 'the camera stream has no video track');
  }
  return stream;
}

/**
 * Opens the camera for the ID capture: the back camera by label when the browser already shows labels,
 * else the environment-facing one; once access is granted the labels appear, and if they name a back
 * camera other than the one opened, that one is opened instead. Resolution per docs/flow.md §9.
 */
export async function openDocumentCamera(): Promise<MediaStream> {
  const devices = mediaDevices();
  const before = await listDevices(devices);
  let stream = assertVideoTrack(await devices.getUserMedia({ video: documentVideoConstraints(before), audio: false }));

  if (!devicesHaveLabels(before)) {
    const after = await listDevices(devices);
    const back = findBackCamera(after);
    const current = stream.getVideoTracks()[0]?.getSettings().deviceId;
    if (back && back.deviceId !== current) {
      stopStream(stream);
      try {
        stream = assertVideoTrack(await devices.getUserMedia({ video: documentVideoConstraints(after), audio: false }));
      } catch {
        // The labelled camera would not open: the environment-facing one did, use it again.
        stream = assertVideoTrack(await devices.getUserMedia({ video: documentVideoConstraints(before), audio: false }));
      }
    }
  }
  return stream;
}

/**
 * Resolves when the video element shows frames; rejects with the in-use error when nothing arrives
 * within the camera-check timeout (another tab or app holding the camera gives a black, frozen track).
 */
export function waitForFrames(video: HTMLVideoElement, timeoutMs: number = cameraCheckTimeoutMs, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const ready = () => video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0;
    if (ready()) {
      resolve();
      return;
    }
    const cleanup = () => {
      window.clearTimeout(timer);
      video.removeEventListener('loadeddata', check);
      video.removeEventListener('resize', check);
      signal?.removeEventListener('abort', abort);
    };
    const check = () => {
      if (ready()) {
        cleanup();
        resolve();
      }
    };
    const abort = () => {
      cleanup();
      reject(new DOMException('aborted', 'AbortError'));
    };
    const timer = window.setTimeout(() => {
      cleanup();
      reject(new CameraError('inUse', `no video frame within ${timeoutMs} ms`));
    }, timeoutMs);
    video.addEventListener('loadeddata', check);
    video.addEventListener('resize', check);
    signal?.addEventListener('abort', abort);
  });
}

/** Spec §9 "Video ideal 640x480 (up to 1280x720)": the user-facing camera of the face video. */
export const faceVideoConstraints: MediaTrackConstraints = {
  facingMode: 'user',
  width: { ideal: 640, max: 1280 },
  height: { ideal: 480, max: 720 },
};

/** Opens the front camera and the microphone (the face video records the code read aloud). */
export async function openFaceCamera(): Promise<MediaStream> {
  const devices = mediaDevices();
  return assertVideoTrack(await devices.getUserMedia({ video: faceVideoConstraints, audio: true }));
}
