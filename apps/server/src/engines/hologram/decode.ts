import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpegBinary, FfmpegSpawnError, rawOutputSize, runFfmpeg } from '../media/ffmpeg.js';

/** Greyscale frames sampled from a video, row-major, one byte per pixel. */
export interface SampledFrames {
  width: number;
  height: number;
  frames: Uint8Array[];
}

export interface DecodeOptions {
  /** Debian's ffmpeg unless FFMPEG_PATH says otherwise. */
  ffmpeg?: string;
  /** Frames per second sampled. */
  fps?: number;
  maxFrames?: number;
  /** Longest side of the sampled frames. */
  maxSide?: number;
  /** Seconds of video read at most (the recording's hard stop is 60 s). */
  maxSeconds?: number;
  timeoutMs?: number;
}

export class VideoDecodeError extends Error {
  override name = 'VideoDecodeError';
}

/** ffmpeg itself could not be started (not installed, wrong FFMPEG_PATH). */
export class FfmpegUnavailableError extends Error {
  override name = 'FfmpegUnavailableError';
}

const maxOutputBytes = 64 * 1024 * 1024;

/**
 * Decodes a WebM/MP4 upload with ffmpeg in a child process (a temp file, since MP4 may keep its index at the
 * end): `fps` greyscale frames per second, scaled to at most `maxSide`, within a timeout. The frame size
 * is read from ffmpeg's own description of its output.
 */
export async function sampleFrames(video: Buffer, options: DecodeOptions = {}): Promise<SampledFrames> {
  const fps = options.fps ?? 8;
  const maxFrames = options.maxFrames ?? 64;
  const maxSide = options.maxSide ?? 320;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-holo-'));
  try {
    const input = path.join(dir, 'input');
    await writeFile(input, video);
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'info',
      '-t',
      String(options.maxSeconds ?? 65),
      '-i',
      input,
      '-an',
      '-sn',
      '-dn',
      '-vf',
      `fps=${fps},scale=w=${maxSide}:h=${maxSide}:force_original_aspect_ratio=decrease:force_divisible_by=2,format=gray`,
      '-frames:v',
      String(maxFrames),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      'pipe:1',
    ];
    const bin = options.ffmpeg ?? ffmpegBinary();
    const { stdout, stderr, code, timedOut } = await runFfmpeg(bin, args, { timeoutMs: options.timeoutMs ?? 30_000, stdoutLimitBytes: maxOutputBytes }).catch((error: unknown) => {
      throw error instanceof FfmpegSpawnError ? new FfmpegUnavailableError(error.message) : error;
    });
    if (timedOut) throw new VideoDecodeError(`decoding took longer than ${options.timeoutMs ?? 30_000} ms`);
    if (code !== 0) throw new VideoDecodeError(`the video could not be decoded (${lastLine(stderr)})`);
    const size = rawOutputSize(stderr);
    if (!size) throw new VideoDecodeError('the video has no picture');
    const { width, height } = size;
    const frameBytes = width * height;
    const frames: Uint8Array[] = [];
    for (let offset = 0; offset + frameBytes <= stdout.length; offset += frameBytes) frames.push(new Uint8Array(stdout.subarray(offset, offset + frameBytes)));
    if (frames.length === 0) throw new VideoDecodeError('the video has no decodable frame');
    return { width, height, frames };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => !/^\s/.test(l) && l.trim() !== '');
  return (lines[lines.length - 1] ?? 'no detail').slice(0, 200);
}
