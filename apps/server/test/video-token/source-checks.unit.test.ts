import { describe, expect, it } from 'vitest';
import { cameraRecord, parseCameraInfo, virtualCameraName } from '../../src/domain/camera.js';
import { containerInfo, recorderCheck } from '../../src/features/face-video/container.js';

// `ffmpeg -i` on files recorded by headless Chromium 156's MediaRecorder here (fake camera), and on files ffmpeg made.
const chromeWebm = `Input #0, matroska,webm, from '/tmp/chrome.webm':
  Metadata:
    encoder         : Chrome
  Duration: 00:00:01.38, start: 0.000000, bitrate: 120 kb/s
  Stream #0:0(eng): Audio: opus, 48000 Hz, mono, fltp (default)
  Stream #0:1(eng): Video: vp8, yuv420p(progressive), 640x480, SAR 1:1 DAR 4:3, 1k tbr, 1k tbn (default)
    Metadata:
      alpha_mode      : 1`;
const chromeMp4 = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from '/tmp/chrome.mp4':
  Metadata:
    major_brand     : isom
    minor_version   : 512
    compatible_brands: isomiso6iso2vp09mp41
    creation_time   : 2026-11-26T17:34:57.000000Z
  Duration: 00:00:01.46, start: 0.000000, bitrate: 138 kb/s
  Stream #0:0[0x1](und): Audio: opus (Opus / 0x7375704F), 48000 Hz, mono, fltp, 133 kb/s (default)
  Stream #0:1[0x2](und): Video: vp9 (Profile 0) (vp09 / 0x39307076), yuv420p(tv), 640x480, 20 fps (default)`;
const ffmpegWebm = `Input #0, matroska,webm, from 't2.webm':
  Metadata:
    ENCODER         : Lavf59.27.100
  Duration: 00:00:01.00, start: 0.000000, bitrate: 48 kb/s
  Stream #0:0: Video: vp8, yuv420p(tv, progressive), 160x120, SAR 1:1 DAR 4:3, 10 fps, 10 tbr, 1k tbn
    Metadata:
      ENCODER         : Lavc59.37.100 libvpx`;
const ffmpegMp4 = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'genuine.mp4':
  Metadata:
    major_brand     : isom
    minor_version   : 512
    compatible_brands: isomiso2mp41
    encoder         : Lavf59.27.100
  Duration: 00:00:03.00, start: 0.000000, bitrate: 641 kb/s
  Stream #0:0[0x1](und): Video: mpeg4 (Simple Profile) (mp4v / 0x7634706D), yuv420p, 640x480 [SAR 1:1 DAR 4:3], 616 kb/s, 15 fps, 15 tbr, 15360 tbn (default)
  Stream #0:1[0x2](und): Audio: aac (LC) (mp4a / 0x6134706D), 22050 Hz, mono, fltp, 17 kb/s (default)`;

describe('the recorder-path container check', () => {
  it("reads ffmpeg's description of the file", () => {
    expect(containerInfo(chromeWebm)).toEqual({ format: 'matroska,webm', encoder: 'Chrome', majorBrand: '', compatibleBrands: '', videoCodec: 'vp8', audioCodec: 'opus' });
    expect(containerInfo(chromeMp4)).toMatchObject({ majorBrand: 'isom', compatibleBrands: 'isomiso6iso2vp09mp41', videoCodec: 'vp9', audioCodec: 'opus', encoder: '' });
  });

  it("takes Chrome's WebM and MP4 for a browser's recording", () => {
    expect(recorderCheck(containerInfo(chromeWebm))).toMatchObject({ consistent: true, origin: 'chrome-webm' });
    expect(recorderCheck(containerInfo(chromeMp4))).toMatchObject({ consistent: true, origin: 'browser-mp4' });
  });

  it('flags files muxed by ffmpeg and codecs no MediaRecorder writes', () => {
    expect(recorderCheck(containerInfo(ffmpegWebm))).toMatchObject({ consistent: false, origin: 'tool' });
    const mp4 = recorderCheck(containerInfo(ffmpegMp4));
    expect(mp4).toMatchObject({ consistent: false, origin: 'tool' });
    expect(mp4.detail).toContain('Lavf59.27.100');
    expect(recorderCheck({ format: 'avi', encoder: '', majorBrand: '', compatibleBrands: '', videoCodec: 'h264', audioCodec: '' }).consistent).toBe(false);
    expect(recorderCheck({ format: 'mov,mp4,m4a,3gp,3g2,mj2', encoder: '', majorBrand: 'qt', compatibleBrands: '', videoCodec: 'prores', audioCodec: 'pcm_s16le' }).consistent).toBe(false);
  });

  it('cannot tell a WebM without a writing application', () => {
    expect(recorderCheck({ format: 'matroska,webm', encoder: '', majorBrand: '', compatibleBrands: '', videoCodec: 'vp8', audioCodec: 'opus' })).toMatchObject({ consistent: null, origin: 'unknown' });
  });
});

describe('the camera label', () => {
  it('names known virtual cameras', () => {
    for (const [label, name] of [
      ['OBS Virtual Camera', 'OBS Virtual Camera'],
      ['OBS-Camera', 'OBS Virtual Camera'],
      ['ManyCam Virtual Webcam', 'ManyCam'],
      ['Snap Camera', 'Snap Camera'],
      ['XSplit VCam', 'XSplit VCam'],
      ['e2eSoft VCam', 'e2eSoft VCam'],
      ['CamTwist', 'CamTwist'],
      ['Dummy video device (0x0000)', 'v4l2loopback'],
      ['Some Virtual Webcam', 'a virtual camera'],
    ] as const) {
      expect(virtualCameraName(label), label).toBe(name);
    }
  });

  it("leaves real cameras and Chromium's fake camera (the browser tests') alone", () => {
    for (const label of [
      'fake_device_0',
      '/tmp/kyc-e2e-video-JdEax3/camera.y4m',
      'FaceTime HD Camera (Built-in) (05ac:8514)',
      'Integrated Webcam (0bda:5521)',
      'camera2 1, facing front',
      'Logitech BRIO (046d:085e)',
      'Front Camera',
      '',
    ]) {
      expect(virtualCameraName(label), label).toBeNull();
    }
  });

  it('records what the browser sent, refused only when the grantor asks', () => {
    const obs = JSON.stringify({ label: 'OBS Virtual Camera', width: 1280, height: 720, frameRate: 30, deviceId: '0123456789abcdef' });
    expect(cameraRecord(obs, false)).toEqual({
      reported: true,
      label: 'OBS Virtual Camera',
      width: 1280,
      height: 720,
      frameRate: 30,
      deviceIdHash: '0123456789abcdef',
      virtualCamera: 'OBS Virtual Camera',
      refused: false,
    });
    expect(cameraRecord(obs, true).refused).toBe(true);
    expect(cameraRecord(JSON.stringify({ label: 'fake_device_0' }), true)).toMatchObject({ virtualCamera: null, refused: false });
    expect(cameraRecord(undefined, true)).toEqual({ reported: false, virtualCamera: null, refused: false });
    expect(cameraRecord('{not json', true)).toMatchObject({ reported: false, refused: false, problem: 'info_camara is not JSON' });
    // A raw device id is not accepted: the browser sends a short hash.
    expect(parseCameraInfo(JSON.stringify({ label: 'x', deviceId: 'e3af54756cd0408cc2c077bd9da0f4554a7207cef0028fa919d2027bbb78499a' })).info).toBeNull();
  });
});
