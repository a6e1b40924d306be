import type { Config } from '../config.js';

export interface UploadLimits {
  /** Largest file (UPLOAD_LIMIT). */
  fileBytes: number;
  /** Text fields per request and the size of each. */
  fields: number;
  fieldBytes: number;
}

export function uploadLimits(config: Pick<Config, 'uploadLimit'>): UploadLimits {
  return { fileBytes: config.uploadLimit, fields: 20, fieldBytes: 10 * 1024 };
}

// Part headers and boundaries around the file and the fields.
const framingBytes = 64 * 1024;

/** The largest multipart request that can respect the limits; a Content-Length above it is refused unread. */
export function maxRequestBytes(limits: UploadLimits): number {
  return limits.fileBytes + limits.fields * limits.fieldBytes + framingBytes;
}
