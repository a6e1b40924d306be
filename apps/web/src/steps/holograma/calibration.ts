import { recordingExtension } from '../../media/recorder';
import type { OriginOS } from '../../media/platform';

/** Spec §4/§9 hologram, recorder path: "at 6 s stop and upload, hard stop at 60 s". */
export const hologramLimits = {
  stopAfterMs: 6000,
  hardStopMs: 60000,
} as const;

/** Spec §7 id_calibrate: multipart ine (webm or mp4) and originOS. */
export function calibrationForm(video: Blob, origin: OriginOS): FormData {
  const form = new FormData();
  form.append('originOS', origin);
  form.append('ine', video, `calibracion.${recordingExtension(video.type)}`);
  return form;
}
