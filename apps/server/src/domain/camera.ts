/**
 * The camera the browser recorded the face video with (issue 18, item 3): its label and track settings as the
 * browser reported them (`info_camara`), and whether the label names a known virtual camera, which can play any
 * file or generated face into the page (an injection attack). The browser's report can itself be forged: a match
 * is evidence, its absence proves nothing. Pure.
 */
import { cameraInfo, type CameraInfo } from '@kyc/contracts';

/**
 * Known virtual cameras, matched against the label without case: driver names as they appear in
 * `MediaStreamTrack.label` on Windows, macOS and Linux. Chromium's fake camera ('fake_device_0'; fed from a file
 * by the browser tests, it is labelled with the file's path) is not among them: it exists only with a
 * command-line switch.
 */
export const virtualCameraPatterns: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'OBS Virtual Camera', pattern: /\bOBS\b/i },
  { name: 'ManyCam', pattern: /many\s*cam/i },
  { name: 'Snap Camera', pattern: /snap\s*camera/i },
  { name: 'XSplit VCam', pattern: /xsplit/i },
  { name: 'e2eSoft VCam', pattern: /e2e\s*soft|\bvcam\b/i },
  { name: 'CamTwist', pattern: /cam\s*twist/i },
  { name: 'SplitCam', pattern: /split\s*cam/i },
  { name: 'AlterCam', pattern: /alter\s*cam/i },
  { name: 'CyberLink YouCam', pattern: /you\s*cam/i },
  { name: 'Avatarify', pattern: /avatarify/i },
  { name: 'FaceRig', pattern: /face\s*rig/i },
  { name: 'mmhmm', pattern: /\bmmhmm\b/i },
  { name: 'v4l2loopback', pattern: /v4l2\s*loopback|dummy video device/i },
  { name: 'a virtual camera', pattern: /virtual/i },
];

/** The known virtual camera a label names, or null. */
export function virtualCameraName(label: string): string | null {
  return virtualCameraPatterns.find((v) => v.pattern.test(label))?.name ?? null;
}

/** The `info_camara` field: the camera info, null when absent, or the reason it could not be read. */
export function parseCameraInfo(text: string | undefined): { info: CameraInfo | null; problem?: string } {
  if (text === undefined || text.trim() === '') return { info: null };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { info: null, problem: 'info_camara is not JSON' };
  }
  const parsed = cameraInfo.safeParse(json);
  if (!parsed.success)
    return {
      info: null,
      problem: `info_camara is not a camera description: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || 'value'} ${i.message}`)
        .join('; ')
        .slice(0, 200)}`,
    };
  return { info: parsed.data };
}

/** What the decision records about the camera (always), and whether the grantor's parameter refuses it. */
export interface CameraRecord {
  reported: boolean;
  label?: string;
  width?: number;
  height?: number;
  frameRate?: number;
  facingMode?: string;
  deviceIdHash?: string;
  /** The known virtual camera the label names, or null. */
  virtualCamera: string | null;
  /** Why the report was not usable (malformed JSON), when it was not. */
  problem?: string;
  refused: boolean;
}

export function cameraRecord(text: string | undefined, refuseVirtual: boolean): CameraRecord {
  const { info, problem } = parseCameraInfo(text);
  if (!info) return { reported: false, virtualCamera: null, ...(problem ? { problem } : {}), refused: false };
  const virtualCamera = virtualCameraName(info.label);
  return {
    reported: true,
    label: info.label,
    ...(info.width !== undefined ? { width: info.width } : {}),
    ...(info.height !== undefined ? { height: info.height } : {}),
    ...(info.frameRate !== undefined ? { frameRate: info.frameRate } : {}),
    ...(info.facingMode !== undefined ? { facingMode: info.facingMode } : {}),
    ...(info.deviceId !== undefined ? { deviceIdHash: info.deviceId } : {}),
    virtualCamera,
    refused: refuseVirtual && virtualCamera !== null,
  };
}
