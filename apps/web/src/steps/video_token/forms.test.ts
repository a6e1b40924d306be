import { describe, expect, it } from 'vitest';
import { linkCall, linkVideoForm, videoTokenForm } from './forms';

const codes = { code: '4729', created: '2026-11-26T04:00:00.000Z', expire: '2026-11-26T04:03:00.000Z', schedule: { digitsMs: [2000, 3100, 4000, 5300], stopMs: 7500 } };
const video = new Blob([new Uint8Array([1, 2, 3])], { type: 'video/webm' });

describe('face video forms', () => {
  it('public_video_token (docs/flow.md §7): exactly uuidUser, created, expire, originOS, service_call videotoken-pdf and videotoken', () => {
    const form = linkVideoForm(video, { uuidUser: 'u-1', codes, origin: 'android' });
    expect([...form.keys()]).toEqual(['uuidUser', 'created', 'expire', 'originOS', 'service_call', 'videotoken']);
    expect(form.get('service_call')).toBe('videotoken-pdf');
    expect(form.get('created')).toBe(codes.created);
  });

  it('the main flow keeps its own fields', () => {
    const form = videoTokenForm(video, { uuidUser: 'u-1', codes, origin: 'ios', flow: 'main', passport: false, ios: true });
    expect(form.get('service_call')).toBe('videotoken-embedding');
    expect(form.get('identificacion_pasaporte')).toBe('false');
  });

  it('the camera (info_camara) goes with the video when known, in both flows', () => {
    const camera = JSON.stringify({ label: 'fake_device_0', width: 640, height: 480, frameRate: 20 });
    expect(videoTokenForm(video, { uuidUser: 'u-1', codes, origin: 'ios', flow: 'main', passport: false, ios: true, camera }).get('info_camara')).toBe(camera);
    expect(linkVideoForm(video, { uuidUser: 'u-1', codes, origin: 'android', camera }).get('info_camara')).toBe(camera);
    expect(videoTokenForm(video, { uuidUser: 'u-1', codes, origin: 'ios', flow: 'main', passport: false, ios: true }).has('info_camara')).toBe(false);
  });

  it('the link flow sends its credential instead of the api key headers', () => {
    expect(linkCall('a.b.c')).toEqual({ identify: false, headers: { 'X-Consumer-Custom-ID': 'a.b.c' } });
  });
});
