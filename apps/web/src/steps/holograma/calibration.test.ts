import { describe, expect, it } from 'vitest';
import { calibrationForm, hologramLimits } from './calibration';

describe('hologram calibration (docs/flow.md §4, §7, §9)', () => {
  it('"at 6 s stop and upload, hard stop at 60 s"', () => {
    expect(hologramLimits).toEqual({ stopAfterMs: 6000, hardStopMs: 60000 });
  });

  it('uploads the video as ine with originOS, named by its container', () => {
    const webm = calibrationForm(new Blob([new Uint8Array([26, 69, 223, 163])], { type: 'video/webm' }), 'android');
    expect([...webm.keys()].sort()).toEqual(['ine', 'originOS']);
    expect(webm.get('originOS')).toBe('android');
    expect((webm.get('ine') as File).name).toBe('calibracion.webm');
    const mp4 = calibrationForm(new Blob([new Uint8Array(8)], { type: 'video/mp4' }), 'ios');
    expect((mp4.get('ine') as File).name).toBe('calibracion.mp4');
  });
});
