import { describe, expect, it } from 'vitest';
import { CameraError, cameraErrorDatum, cameraErrorNeedsPermission, classifyCameraError, devicesHaveLabels, documentVideoConstraints, findBackCamera, type DeviceLike } from './camera-select';
import { documentAspect, documentMask, containRect } from './geometry';
import { isIOS, isMobileDevice, originOS } from './platform';

const cam = (deviceId: string, label = ''): DeviceLike => ({ kind: 'videoinput', deviceId, label });
const mic: DeviceLike = { kind: 'audioinput', deviceId: 'mic', label: 'Micrófono 0 back' };

describe('camera choice (docs/flow.md §5, §9)', () => {
  it('"Back camera chosen when a device label contains back and 0"', () => {
    const devices = [mic, cam('f', 'camera2 1, facing front'), cam('b2', 'camera2 2, facing back'), cam('b0', 'camera2 0, facing back')];
    expect(findBackCamera(devices)?.deviceId).toBe('b0');
    expect(findBackCamera([cam('x', 'Back Camera')])).toBeNull();
    expect(findBackCamera([cam('x', 'BACK camera 0')])?.deviceId).toBe('x');
    // Only cameras: a microphone whose label matches is never picked.
    expect(findBackCamera([mic])).toBeNull();
  });

  it('asks for that camera by id, else for the environment-facing one', () => {
    expect(documentVideoConstraints([cam('b0', 'camera 0, facing back')])).toMatchObject({ deviceId: { exact: 'b0' } });
    const fallback = documentVideoConstraints([cam('a'), cam('b')]);
    expect(fallback).toMatchObject({ facingMode: { ideal: 'environment' } });
    expect(fallback).not.toHaveProperty('deviceId');
  });

  it('"highest resolution up to 4096x2160 when more than 2 cameras", else ideal 1920x1080', () => {
    const three = [cam('a'), cam('b'), cam('c')];
    expect(documentVideoConstraints(three)).toMatchObject({ width: { ideal: 4096, max: 4096 }, height: { ideal: 2160, max: 2160 } });
    const two = [cam('a'), cam('b'), mic];
    expect(documentVideoConstraints(two)).toMatchObject({ width: { ideal: 1920 }, height: { ideal: 1080 } });
    expect(documentVideoConstraints(two).width).not.toHaveProperty('max');
  });

  it('labels appear only once access is granted', () => {
    expect(devicesHaveLabels([cam('a'), cam('b')])).toBe(false);
    expect(devicesHaveLabels([cam('a', 'Integrated Camera')])).toBe(true);
    expect(devicesHaveLabels([mic])).toBe(false);
  });
});

describe('camera errors (docs/flow.md §8)', () => {
  const named = (name: string) => Object.assign(new Error('x'), { name });

  it('classifies getUserMedia failures by name', () => {
    expect(classifyCameraError(named('NotFoundError'))).toBe('notFound');
    expect(classifyCameraError(named('DevicesNotFoundError'))).toBe('notFound');
    expect(classifyCameraError(named('NotReadableError'))).toBe('inUse');
    expect(classifyCameraError(named('TrackStartError'))).toBe('inUse');
    expect(classifyCameraError(named('OverconstrainedError'))).toBe('constraints');
    expect(classifyCameraError(named('NotAllowedError'))).toBe('permissionDenied');
    expect(classifyCameraError(named('PermissionDeniedError'))).toBe('permissionDenied');
    expect(classifyCameraError(new TypeError('At least one of audio and video must be requested'))).toBe('emptyConstraints');
    expect(classifyCameraError(named('AbortError'))).toBe('other');
    expect(classifyCameraError('boom')).toBe('other');
    expect(classifyCameraError(null)).toBe('other');
  });

  it("keeps the class of the flow's own failures (no video track, no frames in time)", () => {
    expect(classifyCameraError(new CameraError('inUse', 'no video track'))).toBe('inUse');
  });

  it('only a refused permission shows the permission instructions', () => {
    expect(cameraErrorNeedsPermission('permissionDenied')).toBe(true);
    for (const kind of ['notFound', 'inUse', 'constraints', 'emptyConstraints', 'other'] as const) {
      expect(cameraErrorNeedsPermission(kind)).toBe(false);
    }
  });

  it('audits the class, name and message', () => {
    expect(JSON.parse(cameraErrorDatum('inUse', named('NotReadableError')))).toEqual({ camara: 'inUse', name: 'NotReadableError', message: 'x' });
  });
});

describe('document guide geometry', () => {
  it('is an ID-1 card centred in a landscape frame, 80% of its height at most', () => {
    const mask = documentMask({ width: 1280, height: 720 });
    expect(mask.height).toBe(576);
    expect(mask.width / mask.height).toBeCloseTo(documentAspect.id1, 2);
    expect(Math.abs(mask.x + mask.width / 2 - 640)).toBeLessThanOrEqual(1);
    expect(mask.y).toBe(72);
  });

  it("takes 90% of a portrait frame's width", () => {
    const mask = documentMask({ width: 1080, height: 1920 });
    expect(mask.width).toBe(972);
    expect(Math.abs(mask.y + mask.height / 2 - 960)).toBeLessThanOrEqual(1);
  });

  it('uses the passport page shape (ID-3) on request', () => {
    const mask = documentMask({ width: 1280, height: 720 }, 'id3');
    expect(mask.width / mask.height).toBeCloseTo(125 / 88, 2);
  });

  it('letterboxes the frame in the stage like object-fit: contain', () => {
    expect(containRect({ width: 360, height: 400 }, { width: 1280, height: 720 })).toEqual({ x: 0, y: 98.75, width: 360, height: 202.5 });
    expect(containRect({ width: 0, height: 400 }, { width: 1280, height: 720 })).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});

describe('platform', () => {
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

  it('tells iOS (iPadOS included), Android and desktop apart', () => {
    expect(originOS({ userAgent: iphone })).toBe('ios');
    expect(originOS({ userAgent: mac, platform: 'MacIntel', maxTouchPoints: 5 })).toBe('ios');
    expect(isIOS({ userAgent: mac, platform: 'MacIntel', maxTouchPoints: 0 })).toBe(false);
    expect(originOS({ userAgent: android })).toBe('android');
    expect(originOS({ userAgent: mac })).toBe('desktop');
  });

  it('a touch-first device counts as mobile whatever its user agent', () => {
    expect(isMobileDevice({ userAgent: mac })).toBe(false);
    expect(isMobileDevice({ userAgent: mac, coarsePointer: true })).toBe(true);
    expect(isMobileDevice({ userAgent: android })).toBe(true);
  });
});
