import { recordingExtension } from '../../media/recorder';
import type { OriginOS } from '../../media/platform';
import type { Codes } from './state';

/** Which flow the face video belongs to: the main journey, the result-link flow (/pdf_video_token) or a review's redo link (/repetir). */
export type FaceFlow = 'main' | 'link' | 'redo';

/** Spec §7 service_call of the face-video call. */
export function serviceCall(flow: FaceFlow): 'videotoken-embedding' | 'videotoken-pdf' {
  return flow === 'link' ? 'videotoken-pdf' : 'videotoken-embedding';
}

/** The result-link flow's calls: the link credential in X-Consumer-Custom-ID instead of the api key headers. */
export function linkCall(linkToken: string | null): { identify: false; headers: Record<string, string> } {
  return { identify: false, headers: { 'X-Consumer-Custom-ID': linkToken ?? '' } };
}

/** Spec §7 public_video_token: uuidUser, created, expire, originOS, service_call and videotoken (+ project's info_camara). */
export function linkVideoForm(video: Blob, fields: Omit<VideoTokenFields, 'flow' | 'passport' | 'ios'>): FormData {
  const form = new FormData();
  form.append('uuidUser', fields.uuidUser);
  form.append('created', fields.codes.created);
  form.append('expire', fields.codes.expire);
  form.append('originOS', fields.origin);
  form.append('service_call', serviceCall('link'));
  form.append('videotoken', video, `videotoken.${recordingExtension(video.type)}`);
  if (fields.camera) form.append('info_camara', fields.camera);
  return form;
}

/** Spec §7 otp: multipart file (the JPEG face photo) and uuid. */
export function otpForm(photo: Blob, uuidUser: string): FormData {
  const form = new FormData();
  form.append('uuid', uuidUser);
  form.append('file', photo, 'rostro.jpg');
  return form;
}

export interface VideoTokenFields {
  uuidUser: string;
  codes: Codes;
  origin: OriginOS;
  flow: FaceFlow;
  passport: boolean;
  ios: boolean;
  /** project: the camera's label and settings as JSON (media/camera-info.ts), sent as info_camara when known. */
  camera?: string | undefined;
}

/**
 * Spec §7 "new video token endpoint": uuidUser, created, expire, originOS (ios/android), service_call,
 * identificacion_pasaporte ('true'/'false'), videotoken (webm/mp4) and the iOS flag.
 */
export function videoTokenForm(video: Blob, fields: VideoTokenFields): FormData {
  const form = new FormData();
  form.append('uuidUser', fields.uuidUser);
  form.append('created', fields.codes.created);
  form.append('expire', fields.codes.expire);
  form.append('originOS', fields.origin);
  form.append('service_call', serviceCall(fields.flow));
  form.append('identificacion_pasaporte', String(fields.passport));
  form.append('iOS', String(fields.ios));
  form.append('videotoken', video, `videotoken.${recordingExtension(video.type)}`);
  if (fields.camera) form.append('info_camara', fields.camera);
  return form;
}
