import { expect } from 'vitest';
import { multipartBody, type FormPart } from '../uploads/samples.js';
import type { TestApp } from './app.js';
import type { trxHeaders } from './fixtures.js';

type Headers = ReturnType<typeof trxHeaders>;

/**
 * The journey's face-video calls as a test makes them through `inject`: the ID front read, a code for a face
 * photo (`/v1/otp`), the video (`/v2/videotoken`, its content type from the file name) and the transaction's
 * attempts. `app` is read at each call (test apps start in beforeAll).
 */
export function faceVideoApi(app: () => TestApp) {
  async function multipart(url: string, headers: Headers, parts: FormPart[]) {
    const { payload, contentType } = multipartBody(parts);
    return app().app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });
  }

  /** Reads the ID front (a PNG of a generated INE) for the transaction; expects it accepted. */
  async function readFront(headers: Headers, front: Buffer) {
    const ocr = await multipart('/v2/ocr', headers, [
      { name: 'uuidUser', value: headers.cliente },
      { name: 'side', value: 'front' },
      { name: 'ine', filename: 'front.png', contentType: 'image/png', data: front },
    ]);
    expect(ocr.statusCode, ocr.body).toBe(200);
  }

  const otp = (headers: Headers, photo: Buffer) =>
    multipart('/v1/otp', headers, [
      { name: 'uuid', value: headers.cliente },
      { name: 'file', filename: 'rostro.jpg', contentType: 'image/jpeg', data: photo },
    ]);

  const videoToken = (headers: Headers, codes: { created: string; expire: string }, video: Buffer, filename = 'video.webm', camera?: object) =>
    multipart('/v2/videotoken', headers, [
      ...(camera ? [{ name: 'info_camara', value: JSON.stringify(camera) }] : []),
      { name: 'uuidUser', value: headers.cliente },
      { name: 'created', value: codes.created },
      { name: 'expire', value: codes.expire },
      { name: 'originOS', value: 'android' },
      { name: 'service_call', value: 'videotoken-embedding' },
      { name: 'identificacion_pasaporte', value: 'false' },
      { name: 'videotoken', filename, contentType: filename.endsWith('.mp4') ? 'video/mp4' : 'video/webm', data: video },
    ]);

  async function attempts(uuidTrx: string) {
    const res = await app().app.inject({ method: 'GET', url: `/v1/transactions/${uuidTrx}/events`, headers: { authorization: 'Bearer demo-secret' } });
    return res.json().payload.transaction as { attempts: Record<string, number>; lockedUntil: string | null };
  }

  return { multipart, readFront, otp, videoToken, attempts };
}
