import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

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

export function ffmpegBinary(): string {
  return process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
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
      '-hide_banner', '-nostdin', '-loglevel', 'info', '-t', String(options.maxSeconds ?? 65), '-i', input,
      '-an', '-sn', '-dn',
      '-vf', `fps=${fps},scale=w=${maxSide}:h=${maxSide}:force_original_aspect_ratio=decrease:force_divisible_by=2,format=gray`,
      '-frames:v', String(maxFrames), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1',
    ];
    const { stdout, stderr, code, timedOut } = await run(options.ffmpeg ?? ffmpegBinary(), args, options.timeoutMs ?? 30_000);
    if (timedOut) throw new VideoDecodeError(`decoding took longer than ${options.timeoutMs ?? 30_000} ms`);
    if (code !== 0) throw new VideoDecodeError(`the video could not be decoded (${lastLine(stderr)})`);
    const output = stderr.slice(stderr.indexOf('Output #0'));
    const size = /Video: rawvideo[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(output);
    if (!size) throw new VideoDecodeError('the video has no picture');
    const width = Number(size[1]);
    const height = Number(size[2]);
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
  const lines = text.trim().split('\n').filter((l) => !/^\s/.test(l) && l.trim() !== '');
  return (lines[lines.length - 1] ?? 'no detail').slice(0, 200);
}

function run(bin: string, args: string[], timeoutMs: number): Promise<{ stdout: Buffer; stderr: string; code: number | null; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxOutputBytes) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 200_000) stderr += chunk.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new FfmpegUnavailableError(`ffmpeg could not start (${bin}): ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(chunks), stderr, code, timedOut });
    });
  });
}
