import type { UploadedFile } from '../../uploads/read-multipart.js';
import type { VideoContentType, VideoTokenRequest } from './index.js';

/**
 * The parts of a face-video decision that every upload route reads the same way (the journey's `/v2/videotoken`,
 * the result link's and a redo link's): the recording, the code's created and expire, the device and the camera.
 */
export function uploadedVideo(
  fields: Readonly<Record<string, string | undefined>>,
  file: UploadedFile,
): Pick<VideoTokenRequest, 'video' | 'contentType' | 'created' | 'expire' | 'originOS' | 'cameraInfo'> {
  return {
    video: { buffer: file.buffer },
    // The multipart contract accepts only video types, checked by sniffing before this is called.
    contentType: file.sniffedType as VideoContentType,
    created: fields.created ?? '',
    expire: fields.expire ?? '',
    ...(fields.originOS ? { originOS: fields.originOS } : {}),
    ...(fields.info_camara ? { cameraInfo: fields.info_camara } : {}),
  };
}
