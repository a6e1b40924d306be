import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMedia, MediaError } from '../../src/engines/media/decode.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kyc-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function make(name: string, args: string[]): Buffer {
  const file = path.join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
  return readFileSync(file);
}

const video = (seconds: number, extra: string[] = []) =>
  make(`v${seconds}${extra.length}.webm`, [
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=320x240:rate=10`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    ...extra,
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-c:a',
    'libopus',
    '-shortest',
  ]);

async function reason(input: Parameters<typeof decodeMedia>[0], options = {}): Promise<string> {
  try {
    await decodeMedia(input, options);
    return 'decoded';
  } catch (error) {
    return error instanceof MediaError ? error.reason : String(error);
  }
}

describe('decoding a face video', () => {
  it('samples frames, every frame as a thumbnail, and the sound with its envelope', async () => {
    const media = await decodeMedia({ buffer: video(2) }, { fps: 4 });
    expect(media.frames.length).toBe(8);
    expect(media.frames[1]!.timeMs).toBe(250);
    expect(media.frames[0]!.image).toMatchObject({ width: 320, height: 240 });
    expect(media.frames[0]!.image.data.length).toBe(320 * 240 * 3);
    expect(media.thumbnails.frames.length).toBe(20);
    expect(media.audio?.sampleRate).toBe(16_000);
    // A 440 Hz sine at ffmpeg's default amplitude (1/8 of full scale): RMS about 0.088.
    expect(media.audio!.envelope[20]).toBeGreaterThan(0.05);
  }, 30_000);

  it('refuses empty, corrupt, soundless-and-pictureless, too long and too short files by reason', async () => {
    expect(await reason({ buffer: Buffer.alloc(0) })).toBe('empty');
    expect(await reason({ path: path.join(dir, 'missing.webm') })).toBe('empty');
    expect(await reason({ buffer: Buffer.concat([video(1).subarray(0, 40), Buffer.alloc(5000, 3)]) })).toBe('corrupt');
    expect(await reason({ buffer: Buffer.from('no es un video') })).toBe('corrupt');
    const soundOnly = make('a.webm', ['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'libopus']);
    expect(await reason({ buffer: soundOnly })).toBe('no_video_stream');
    expect(await reason({ buffer: video(4) }, { maxDurationMs: 2000 })).toBe('too_long');
    expect(await reason({ buffer: video(1) }, { minDurationMs: 2000 })).toBe('too_short');
    expect(await reason({ buffer: video(1) }, { ffmpegPath: '/nonexistent/ffmpeg' })).toBe('ffmpeg_missing');
  }, 30_000);
});
