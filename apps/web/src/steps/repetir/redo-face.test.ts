import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeFailure } from '../video_token/outcomes';
import { CallRefusal } from '../video_token/face-calls';
import { RedoError } from './redo-api';
import { redoFaceCalls } from './redo-face';

const token = 'aaa.bbb.ccc';
const codes = { code: '4821', created: '2026-11-29T03:00:00.000Z', expire: '2026-11-29T03:05:00.000Z', schedule: { digitsMs: [1800, 3000, 3900, 5400], stopMs: 7600 } };
const fields = { uuidUser: '', codes, origin: 'android' as const, camera: '{"label":"Cámara frontal"}', passport: false, ios: false };

describe('/repetir: the face video through a redo link', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the code for the photo and sends the video with the code and camera, the credential in X-Redo-Token', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const payload = url.endsWith('/code') ? { codes } : { match: true, liveness: true };
      return new Response(JSON.stringify({ status: 200, payload }), { status: 200 });
    });
    const face = redoFaceCalls(token);
    expect(await face.code(new Blob(['jpeg'], { type: 'image/jpeg' }), new AbortController().signal)).toEqual(codes);
    expect(calls[0]!.url).toBe('/v1/redo/face/code');
    expect((calls[0]!.init.headers as Record<string, string>)['x-redo-token']).toBe(token);
    expect((calls[0]!.init.body as FormData).get('file')).toBeInstanceOf(Blob);
    expect(await face.video(new Blob(['webm'], { type: 'video/webm' }), fields, new AbortController().signal)).toEqual({ match: true, liveness: true });
    const form = calls[1]!.init.body as FormData;
    expect(calls[1]!.url).toBe('/v1/redo/face/video');
    expect([form.get('created'), form.get('expire'), form.get('originOS'), form.get('info_camara')]).toEqual([codes.created, codes.expire, 'android', fields.camera]);
    expect((form.get('videotoken') as File).name).toBe('videotoken.webm');
    // The link settles the user and the service: they are not sent.
    expect(form.has('uuidUser')).toBe(false);
  });

  it("turns the service's refusal into the face step's failure with its Spanish text; an unreachable service stays a network failure", async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ status: 400, message: 'no match', message_client: 'No se encontró rostro' }), { status: 400 }));
    const refused = await redoFaceCalls(token)
      .code(new Blob(['x']), new AbortController().signal)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CallRefusal);
    expect(refused).toMatchObject({ status: 400, messageClient: 'No se encontró rostro' });
    expect(describeFailure({ kind: 'token', status: 400, messageClient: 'No se encontró rostro' }).countsAttempt).toBe(false);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const unreachable = await redoFaceCalls(token)
      .video(new Blob(['x']), fields, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(RedoError);
    expect(unreachable).toMatchObject({ status: 0 });
  });
});
