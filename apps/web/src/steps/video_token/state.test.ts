import { describe, expect, it } from 'vitest';
import { createStateStorage, readJson } from '../../session/storage';
import { otpForm, serviceCall, videoTokenForm } from './forms';
import { isCodes, isPassportCapture, lockActive, noMatchFace, readVideoAttempts, storeCodes, storeFaceMatch, storeNoMatch, writeVideoAttempts } from './state';

const codes = { code: '4729', created: '2026-11-26T03:00:00.000Z', expire: '2026-11-26T03:05:00.000Z', schedule: { digitsMs: [1830, 3010, 3880, 5650], stopMs: 7850 } };

describe('face video browser state', () => {
  it('keeps its attempts in intentsData.video_token next to the ID counters', () => {
    const storage = createStateStorage(null);
    storage.set('intentsData', JSON.stringify({ id_frontal: 2 }));
    expect(readVideoAttempts(storage, 3, 0)).toEqual({ used: 0, max: 3 });
    writeVideoAttempts(storage, { used: 2, max: 3 });
    expect(readJson(storage, 'intentsData')).toEqual({ id_frontal: 2, video_token: 2 });
    expect(readVideoAttempts(storage, 3, 0)).toEqual({ used: 2, max: 3 });
  });

  it('"If bloqueo is true at load, attempts are set to the maximum" while the lock lasts', () => {
    const storage = createStateStorage(null);
    storage.set('bloqueo', 'true');
    storage.set('time', String(10_000));
    expect(lockActive(storage, 5_000)).toBe(true);
    expect(readVideoAttempts(storage, 3, 5_000)).toEqual({ used: 3, max: 3 });
    expect(readVideoAttempts(storage, 3, 20_000).used).toBe(0);
    storage.set('time', new Date(10_000).toISOString());
    expect(lockActive(storage, 5_000)).toBe(true);
    // "video attempts start at 5 in the link/provider variant".
    expect(readVideoAttempts(storage, 5, 5_000)).toEqual({ used: 5, max: 5 });
  });

  it('stores codes as a list, and the face result (no-match defaults of docs/flow.md §3)', () => {
    const storage = createStateStorage(null);
    storeCodes(storage, codes);
    storeCodes(storage, { ...codes, code: '1111' });
    expect(readJson(storage, 'codes')).toEqual([codes, { ...codes, code: '1111' }]);
    storeFaceMatch(storage, { match: true, liveness: true, documentLink: '/v1/doc/1' });
    expect(readJson(storage, 'face')).toEqual({ match: true, liveness: true });
    expect(storage.get('enlace')).toBe('/v1/doc/1');
    storeNoMatch(storage);
    expect(readJson(storage, 'face')).toEqual({ match: false, gender: 'Indeterminado', age: 0, expressions: { happy: 0 }, liveness: 'No superada' });
    expect(noMatchFace.liveness).toBe('No superada');
  });

  it('validates the otp codes', () => {
    expect(isCodes(codes)).toBe(true);
    expect(isCodes({ ...codes, code: '12a4' })).toBe(false);
    expect(isCodes({ code: '1234' })).toBe(false);
    // The schedule of the digits is required: the screen shows them at its times.
    expect(isCodes({ ...codes, schedule: undefined })).toBe(false);
    expect(isCodes({ ...codes, schedule: { digitsMs: [3000, 2000], stopMs: 6000 } })).toBe(false);
  });

  it('identificacion_pasaporte comes from the front read', () => {
    const storage = createStateStorage(null);
    expect(isPassportCapture(storage)).toBe(false);
    storage.set('ocrFront', JSON.stringify({ identificacionPasaporte: true }));
    expect(isPassportCapture(storage)).toBe(true);
  });
});

describe('face video multipart forms (docs/flow.md §7)', () => {
  it('otp: file and uuid', () => {
    const form = otpForm(new Blob(['x'], { type: 'image/jpeg' }), 'u-1');
    expect(form.get('uuid')).toBe('u-1');
    expect((form.get('file') as File).name).toBe('rostro.jpg');
  });

  it("videotoken: every field, service_call 'videotoken-embedding' or 'videotoken-pdf'", () => {
    const video = new Blob(['v'], { type: 'video/webm' });
    const form = videoTokenForm(video, { uuidUser: 'u-1', codes, origin: 'android', flow: 'main', passport: false, ios: false });
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({
      uuidUser: 'u-1',
      created: codes.created,
      expire: codes.expire,
      originOS: 'android',
      service_call: 'videotoken-embedding',
      identificacion_pasaporte: 'false',
      iOS: 'false',
    });
    expect((form.get('videotoken') as File).name).toBe('videotoken.webm');
    const ios = videoTokenForm(new Blob(['v'], { type: 'video/mp4' }), { uuidUser: 'u', codes, origin: 'ios', flow: 'link', passport: true, ios: true });
    expect(ios.get('service_call')).toBe('videotoken-pdf');
    expect(ios.get('identificacion_pasaporte')).toBe('true');
    expect((ios.get('videotoken') as File).name).toBe('videotoken.mp4');
    expect(serviceCall('main')).toBe('videotoken-embedding');
  });
});
