/**
 * Decodes an uploaded face video (webm or mp4) with ffmpeg, run as a child process with a time limit: frames
 * sampled at a fixed rate as raw RGB (longest side at most 640 px) and the sound as mono 16 kHz PCM with its
 * energy envelope. Nothing here judges the content; MediaError says why a file cannot be used.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { containerInfo, type ContainerInfo } from './container.js';
import type { RgbImage } from '../face/types.js';
import { ffmpegBinary, FfmpegSpawnError, rawOutputSize, runFfmpeg, type FfmpegRun } from './ffmpeg.js';

export { ffmpegBinary };

export type MediaErrorReason = 'empty' | 'corrupt' | 'no_video_stream' | 'too_long' | 'too_short' | 'timeout' | 'ffmpeg_missing';

export class MediaError extends Error {
  override name = 'MediaError';
  constructor(
    readonly reason: MediaErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface DecodedFrame {
  /** From the first decoded frame. */
  timeMs: number;
  image: RgbImage;
}

export interface AudioTrack {
  sampleRate: number;
  samples: Int16Array;
  /** RMS of each `envelopeStepMs` window, 0..1 of full scale. */
  envelope: number[];
  envelopeStepMs: number;
}

/** Every frame of the video (not only the sampled ones) as a tiny grey picture, to find repeated frames. */
export interface ThumbnailTrack {
  width: number;
  height: number;
  /** Approximate time of each thumbnail (the frames are spread evenly over the duration). */
  timesMs: number[];
  frames: Uint8Array[];
}

export const THUMB_SIZE = { width: 16, height: 12 } as const;

export interface DecodedMedia {
  frames: DecodedFrame[];
  thumbnails: ThumbnailTrack;
  fps: number;
  durationMs: number;
  /** Null when the file has no sound track. */
  audio: AudioTrack | null;
  /** What ffmpeg says of the file: demuxer, encoder tag, brands, codecs (container.ts). */
  container: ContainerInfo;
}

export interface DecodeOptions {
  /** Frames sampled per second (default 4). */
  fps?: number;
  /** Longest side of the sampled frames (default 640). */
  maxSide?: number;
  /** Longer videos are refused (default 30 s: the flow records about 9 s). */
  maxDurationMs?: number;
  /** Shorter videos are refused (default 1 s). */
  minDurationMs?: number;
  /** ffmpeg is killed after this (default 20 s). */
  timeoutMs?: number;
  ffmpegPath?: string;
}

/** Frames sampled per second when the caller does not say (the face decision's rate). */
export const DEFAULT_SAMPLE_FPS = 4;
export const AUDIO_RATE = 16_000;
export const ENVELOPE_STEP_MS = 20;

export type MediaInput = { path: string } | { buffer: Buffer };

async function run(bin: string, args: string[], timeoutMs: number): Promise<FfmpegRun> {
  try {
    return await runFfmpeg(bin, args, { timeoutMs, stderrLimitChars: 64 * 1024 });
  } catch (error) {
    if (error instanceof FfmpegSpawnError && error.spawnFailure.code === 'ENOENT') {
      throw new MediaError('ffmpeg_missing', `ffmpeg not found at ${bin} (install it or set FFMPEG_PATH)`);
    }
    throw error instanceof FfmpegSpawnError ? error.spawnFailure : error;
  }
}

function failureOf(stderr: string): MediaError {
  if (/matches no streams|does not contain any stream|Output file #0 does not contain/i.test(stderr)) {
    return new MediaError('no_video_stream', 'the file has no video stream');
  }
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /invalid|error|corrupt|EBML|moov atom/i.test(l))
    .at(-1);
  return new MediaError('corrupt', `the video could not be decoded${line ? `: ${line.slice(0, 200)}` : ''}`);
}

/** RMS of each `stepMs` window, 0..1 of `fullScale` (16-bit samples by default). */
export function energyEnvelope(samples: ArrayLike<number>, sampleRate: number, stepMs = ENVELOPE_STEP_MS, fullScale = 32768): number[] {
  const step = Math.max(1, Math.round((sampleRate * stepMs) / 1000));
  const envelope: number[] = [];
  for (let start = 0; start + step <= samples.length; start += step) {
    let sum = 0;
    for (let i = start; i < start + step; i += 1) {
      const v = samples[i]! / fullScale;
      sum += v * v;
    }
    envelope.push(Math.sqrt(sum / step));
  }
  return envelope;
}

export async function decodeMedia(input: MediaInput, options: DecodeOptions = {}): Promise<DecodedMedia> {
  const fps = options.fps ?? DEFAULT_SAMPLE_FPS;
  const maxSide = options.maxSide ?? 640;
  const maxDurationMs = options.maxDurationMs ?? 30_000;
  const minDurationMs = options.minDurationMs ?? 1_000;
  const bin = options.ffmpegPath ?? ffmpegBinary();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kyc-media-'));
  try {
    let source: string;
    if ('buffer' in input) {
      if (input.buffer.length === 0) throw new MediaError('empty', 'the video is empty');
      source = path.join(dir, 'input');
      await writeFile(source, input.buffer);
    } else {
      source = input.path;
      const info = await stat(source).catch(() => undefined);
      if (!info?.isFile()) throw new MediaError('empty', `no video file at ${source}`);
      if (info.size === 0) throw new MediaError('empty', 'the video is empty');
    }
    const videoOut = path.join(dir, 'frames.rgb');
    const audioOut = path.join(dir, 'audio.pcm');
    const thumbOut = path.join(dir, 'thumbs.gray');
    // What the file holds (ffmpeg with no output describes its input and exits 1).
    const probe = await run(bin, ['-hide_banner', '-nostdin', '-i', source], options.timeoutMs ?? 20_000);
    if (probe.timedOut) throw new MediaError('timeout', `reading the video took longer than ${options.timeoutMs ?? 20_000} ms`);
    const streams = probe.stderr.split('\n').filter((line) => /^\s*Stream #0:/.test(line));
    if (streams.length === 0) throw failureOf(probe.stderr);
    if (!streams.some((line) => /: Video: /.test(line) && !/attached pic/.test(line))) throw new MediaError('no_video_stream', 'the file has no video stream');
    const hasAudio = streams.some((line) => /: Audio: /.test(line));
    const scale = `scale='if(gte(iw,ih),min(${maxSide},iw),-2)':'if(gte(iw,ih),-2,min(${maxSide},ih))'`;
    // Decode a little past the limit, so that "too long" is seen without decoding an arbitrarily long file.
    const limitSeconds = (maxDurationMs + 1000) / 1000;
    const common = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info', '-y', '-t', String(limitSeconds), '-i', source];
    const video = ['-map', '0:v:0', '-vf', `fps=${fps},${scale},format=rgb24`, '-f', 'rawvideo', videoOut];
    const audio = ['-map', '0:a:0', '-vn', '-ac', '1', '-ar', String(AUDIO_RATE), '-f', 's16le', audioOut];
    const thumbs = ['-map', '0:v:0', '-fps_mode', 'passthrough', '-vf', `scale=${THUMB_SIZE.width}:${THUMB_SIZE.height}:flags=area,format=gray`, '-f', 'rawvideo', thumbOut];
    // Only the first output is described as "Output #0": the frames' size is read from it.
    const result = await run(bin, [...common, ...video, ...thumbs, ...(hasAudio ? audio : [])], options.timeoutMs ?? 20_000);
    if (result.timedOut) throw new MediaError('timeout', `decoding took longer than ${options.timeoutMs ?? 20_000} ms`);
    if (result.code !== 0) throw failureOf(result.stderr);

    const size = rawOutputSize(result.stderr);
    const raw = await readFile(videoOut).catch(() => Buffer.alloc(0));
    if (!size || raw.length === 0) throw new MediaError('corrupt', 'the video has no decodable frames');
    const frameBytes = size.width * size.height * 3;
    const count = Math.floor(raw.length / frameBytes);
    const frames: DecodedFrame[] = [];
    for (let i = 0; i < count; i += 1) {
      frames.push({
        timeMs: Math.round((i * 1000) / fps),
        image: { data: new Uint8Array(raw.buffer, raw.byteOffset + i * frameBytes, frameBytes), width: size.width, height: size.height },
      });
    }
    const durationMs = Math.round((count * 1000) / fps);
    if (durationMs > maxDurationMs) throw new MediaError('too_long', `the video lasts more than ${maxDurationMs / 1000} s`);
    if (durationMs < minDurationMs) throw new MediaError('too_short', `the video lasts less than ${minDurationMs / 1000} s`);

    const pcm = await readFile(audioOut).catch(() => Buffer.alloc(0));
    let track: AudioTrack | null = null;
    if (pcm.length >= 2) {
      const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.length - (pcm.length % 2))));
      track = { sampleRate: AUDIO_RATE, samples, envelope: energyEnvelope(samples, AUDIO_RATE), envelopeStepMs: ENVELOPE_STEP_MS };
    }
    const thumbBytes = THUMB_SIZE.width * THUMB_SIZE.height;
    const grey = await readFile(thumbOut).catch(() => Buffer.alloc(0));
    const thumbCount = Math.floor(grey.length / thumbBytes);
    const thumbnails: ThumbnailTrack = {
      ...THUMB_SIZE,
      timesMs: Array.from({ length: thumbCount }, (_, i) => Math.round((i * durationMs) / Math.max(1, thumbCount))),
      frames: Array.from({ length: thumbCount }, (_, i) => new Uint8Array(grey.buffer, grey.byteOffset + i * thumbBytes, thumbBytes)),
    };
    return { frames, thumbnails, fps, durationMs, audio: track, container: containerInfo(probe.stderr) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
