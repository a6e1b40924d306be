import { describe, expect, it } from 'vitest';
import { cameraInfo } from '@kyc/contracts';
import { cameraInfoField, describeCamera } from './camera-info';

describe('camera info of the face video (info_camara)', () => {
  it('keeps the label and the settings the server records, and hashes the device id', async () => {
    const info = await describeCamera({
      label: 'OBS Virtual Camera',
      getSettings: () => ({ width: 640, height: 480, frameRate: 29.97, facingMode: 'user', deviceId: 'e3af54756cd0408cc2c077bd9da0f455' }),
    });
    expect(info).toMatchObject({ label: 'OBS Virtual Camera', width: 640, height: 480, frameRate: 29.97, facingMode: 'user' });
    expect(info?.deviceId).toMatch(/^[0-9a-f]{16}$/);
    expect(info?.deviceId).not.toContain('e3af5475');
    // What the browser sends is what the server's contract accepts.
    expect(cameraInfo.safeParse(JSON.parse(cameraInfoField(info)!)).success).toBe(true);
  });

  it("Chromium's fake camera: no facing mode, a label of its own", async () => {
    const info = await describeCamera({ label: 'fake_device_0', getSettings: () => ({ width: 640, height: 480, frameRate: 20 }) });
    expect(info).toEqual({ label: 'fake_device_0', width: 640, height: 480, frameRate: 20 });
  });

  it('nothing without a video track', async () => {
    expect(await describeCamera(undefined)).toBeNull();
    expect(cameraInfoField(null)).toBeUndefined();
  });
});
