import { api } from '../../api/calls';
import type { OriginOS } from '../../media/platform';
import type { SessionFacts } from '../../session/session';
import { linkCall, linkVideoForm, otpForm, videoTokenForm, type FaceFlow } from './forms';
import type { Codes } from './state';

/** What the face-video call carries besides the recording. */
export interface FaceVideoFields {
  uuidUser: string;
  codes: Codes;
  origin: OriginOS;
  /** The camera's label and settings as JSON (media/camera-info.ts), when known. */
  camera: string | undefined;
  passport: boolean;
  ios: boolean;
}

/** The verdict's payload as the service answers it (not validated in the browser: a match is all that counts). */
export interface FacePayload {
  match?: boolean | undefined;
  liveness?: boolean | string | undefined;
  documentLink?: string | undefined;
}

/**
 * The two calls of a face-video attempt: the photo that obtains the code, and the recording. Each flow has its own
 * (the journey's api key and transaction, the result link's credential, a redo link's credential); an attempt only
 * sees this interface. A refusal is thrown as an ApiError (the journey's client) or a CallRefusal.
 */
export interface FaceCalls {
  /** The face photo in; the codes out, as received (the attempt checks their shape). */
  code(photo: Blob, signal: AbortSignal): Promise<unknown>;
  video(video: Blob, fields: FaceVideoFields, signal: AbortSignal): Promise<FacePayload | undefined>;
}

/** A call the service answered with an error status (status > 0), for calls made outside the journey's api client. */
export class CallRefusal extends Error {
  override name = 'CallRefusal';
  constructor(
    readonly status: number,
    message: string,
    readonly messageClient: string | undefined,
  ) {
    super(message);
  }
}

/** The journey's calls (docs/flow.md §7 otp and videotoken) or the result-link flow's (public_otp, public_video_token). */
export function journeyFaceCalls(flow: Exclude<FaceFlow, 'redo'>, step: 'video_token' | 'pdf_video_token', session: SessionFacts): FaceCalls {
  const link = flow === 'link' ? linkCall(session.linkToken) : {};
  return {
    async code(photo, signal) {
      const form = otpForm(photo, session.uuidUser ?? '');
      const response = await (flow === 'link' ? api().postMultipart('publicOtp', form, { step, signal, ...link }) : api().postMultipart('otp', form, { step, signal }));
      return response.payload?.codes;
    },
    async video(video, fields, signal) {
      const response = await (flow === 'link'
        ? api().postMultipart('publicVideoToken', linkVideoForm(video, fields), { step, signal, ...link })
        : api().postMultipart('videoToken', videoTokenForm(video, { ...fields, flow }), { step, signal }));
      return response.payload;
    },
  };
}
