import { describe, expect, it } from 'vitest';
import { chooseRecorderMime, recordingExtension } from './recorder';

const supports =
  (...types: string[]) =>
  (mime: string) =>
    types.includes(mime);

describe('recorder type (docs/flow.md §9: "mp4 on iOS, webm vp9 or vp8 otherwise")', () => {
  it('prefers vp9, then vp8, then plain webm outside iOS', () => {
    expect(chooseRecorderMime(supports('video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/mp4'), false)).toBe('video/webm;codecs=vp9');
    expect(chooseRecorderMime(supports('video/webm;codecs=vp8', 'video/webm'), false)).toBe('video/webm;codecs=vp8');
    expect(chooseRecorderMime(supports('video/webm'), false)).toBe('video/webm');
  });

  it('never records mp4 outside iOS, nor webm on iOS', () => {
    expect(chooseRecorderMime(supports('video/mp4'), false)).toBeNull();
    expect(chooseRecorderMime(supports('video/webm;codecs=vp9', 'video/webm'), true)).toBeNull();
  });

  it('records mp4 on iOS', () => {
    expect(chooseRecorderMime(supports('video/mp4', 'video/webm'), true)).toBe('video/mp4');
    expect(chooseRecorderMime(supports('video/mp4;codecs=avc1'), true)).toBe('video/mp4;codecs=avc1');
  });

  it('treats an engine that throws on a codecs string as not supporting it', () => {
    const throwing = (mime: string) => {
      if (mime.includes('vp9')) throw new Error('NotSupportedError');
      return mime === 'video/webm;codecs=vp8';
    };
    expect(chooseRecorderMime(throwing, false)).toBe('video/webm;codecs=vp8');
  });

  it('names the upload file by container', () => {
    expect(recordingExtension('video/webm;codecs=vp8')).toBe('webm');
    expect(recordingExtension('video/mp4')).toBe('mp4');
    expect(recordingExtension('')).toBe('webm');
  });
});
