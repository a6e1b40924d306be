import { redoPaths } from '@kyc/contracts/redo-routes';
import { recordingExtension } from '../../media/recorder';
import { CallRefusal, type FaceCalls, type FaceVideoFields, type FacePayload } from '../video_token/face-calls';
import { call, RedoError } from './redo-api';

/** A redo refusal as the face attempt reads it (status 0, unreachable, stays a plain error: the attempt's network failure). */
function asFaceError(error: unknown): unknown {
  if (error instanceof RedoError && error.status > 0) return new CallRefusal(error.status, error.message, error.text);
  return error;
}

/** The redo's face video form: the code's created and expire, the device, the camera and the recording. */
export function redoVideoForm(video: Blob, fields: FaceVideoFields): FormData {
  const form = new FormData();
  form.append('created', fields.codes.created);
  form.append('expire', fields.codes.expire);
  form.append('originOS', fields.origin);
  if (fields.camera) form.append('info_camara', fields.camera);
  form.append('videotoken', video, `videotoken.${recordingExtension(video.type)}`);
  return form;
}

/** The face video's two calls through a redo link (`X-Redo-Token`): the code for a photo, then the video. */
export function redoFaceCalls(token: string): FaceCalls {
  return {
    async code(photo, signal) {
      const form = new FormData();
      form.append('file', photo, 'rostro.jpg');
      const answer = await call<{ payload?: { codes?: unknown } }>(token, 'POST', redoPaths.faceCode, form, signal).catch((error: unknown) => {
        throw asFaceError(error);
      });
      return answer.payload?.codes;
    },
    async video(video, fields, signal) {
      const answer = await call<{ payload?: FacePayload }>(token, 'POST', redoPaths.faceVideo, redoVideoForm(video, fields), signal).catch((error: unknown) => {
        throw asFaceError(error);
      });
      return answer.payload;
    },
  };
}
