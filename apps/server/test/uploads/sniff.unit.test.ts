import { beforeAll, describe, expect, it } from 'vitest';
import { extensionOf, isAccepted, sniffType, typeName } from '../../src/uploads/sniff.js';
import { imageSample, pdfSample, videoSamples } from './samples.js';

const proofTypes = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'];
const videoTypes = ['video/webm', 'video/mp4'];

describe('sniffType', () => {
  let videos: ReturnType<typeof videoSamples>;
  beforeAll(() => {
    videos = videoSamples();
  });

  it('recognises PNG, JPEG and WebP images made by an encoder', async () => {
    expect(sniffType(await imageSample('png'))).toBe('image/png');
    expect(sniffType(await imageSample('jpeg'))).toBe('image/jpeg');
    expect(sniffType(await imageSample('webp'))).toBe('image/webp');
  });

  it('recognises a PDF', () => {
    expect(sniffType(pdfSample())).toBe('application/pdf');
  });

  it('recognises WebM by its EBML DocType, and tells Matroska apart', () => {
    expect(sniffType(videos.webm)).toBe('video/webm');
    expect(sniffType(videos.mkv)).toBe('video/x-matroska');
  });

  it('recognises MP4 and QuickTime by the ftyp box', () => {
    expect(sniffType(videos.mp4)).toBe('video/mp4');
    expect(sniffType(videos.mov)).toBe('video/quicktime');
  });

  it('does not take an ISO-media image (AVIF) for a video', async () => {
    expect(sniffType(await imageSample('avif', 64, 64))).toBe('image/avif');
  });

  it('ignores names and claims: text, random bytes and too-short inputs are unrecognised', () => {
    expect(sniffType(Buffer.from('Recibo de luz de la calle Reforma 123\n'))).toBeUndefined();
    expect(sniffType(Buffer.from([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f]))).toBeUndefined();
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined();
    expect(sniffType(Buffer.alloc(0))).toBeUndefined();
    expect(sniffType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80, 0x00, 0x00, 0x00]))).toBeUndefined();
  });

  it('is not fooled by a leading signature in the middle of a file', async () => {
    const png = await imageSample('png');
    expect(sniffType(Buffer.concat([Buffer.from('xx'), png]))).toBeUndefined();
  });
});

describe('isAccepted', () => {
  it('accepts exactly the listed types', () => {
    expect(isAccepted('image/png', proofTypes)).toBe(true);
    expect(isAccepted('application/pdf', proofTypes)).toBe(true);
    expect(isAccepted('video/mp4', proofTypes)).toBe(false);
    expect(isAccepted('image/avif', proofTypes)).toBe(false);
    expect(isAccepted(undefined, proofTypes)).toBe(false);
  });

  it('accepts QuickTime wherever MP4 is accepted, and only there', () => {
    expect(isAccepted('video/quicktime', videoTypes)).toBe(true);
    expect(isAccepted('video/quicktime', ['video/webm'])).toBe(false);
    expect(isAccepted('video/x-matroska', videoTypes)).toBe(false);
  });
});

describe('type names and extensions', () => {
  it('names types for messages and storage keys', () => {
    expect(typeName('image/jpeg')).toBe('JPEG');
    expect(typeName(undefined)).toBe('unrecognised');
    expect(typeName('text/plain')).toBe('unrecognised');
    expect(extensionOf('image/jpeg')).toBe('jpg');
    expect(extensionOf('video/quicktime')).toBe('mov');
  });
});
