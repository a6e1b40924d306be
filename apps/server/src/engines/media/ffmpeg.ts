/** Running Debian's ffmpeg (or FFMPEG_PATH) as a child process with a time limit. */
import { spawn } from 'node:child_process';

export function ffmpegBinary(): string {
  return process.env.FFMPEG_PATH?.trim() || '/usr/bin/ffmpeg';
}

export interface FfmpegRun {
  code: number | null;
  /** Empty unless `stdoutLimitBytes` asked for it. */
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

/** ffmpeg itself could not be started (not installed, wrong FFMPEG_PATH). */
export class FfmpegSpawnError extends Error {
  override name = 'FfmpegSpawnError';
  constructor(
    readonly bin: string,
    readonly spawnFailure: NodeJS.ErrnoException,
  ) {
    super(`ffmpeg could not start (${bin}): ${spawnFailure.message}`);
  }
}

/**
 * Runs ffmpeg, killing it after `timeoutMs`. stdout is kept only when `stdoutLimitBytes` is given, and the
 * process is killed if it writes more (a decoded bomb must not fill the memory).
 */
export function runFfmpeg(bin: string, args: string[], options: { timeoutMs: number; stdoutLimitBytes?: number; stderrLimitChars?: number }): Promise<FfmpegRun> {
  const stderrLimit = options.stderrLimitChars ?? 200_000;
  return new Promise((resolve, reject) => {
    const captureStdout = options.stdoutLimitBytes !== undefined;
    const child = spawn(bin, args, { stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.stdoutLimitBytes!) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < stderrLimit) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new FfmpegSpawnError(bin, error));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks), stderr, timedOut });
    });
  });
}

/** The size ffmpeg wrote the raw video at, from its description of output #0. */
export function rawOutputSize(stderr: string): { width: number; height: number } | undefined {
  const output = stderr.slice(stderr.indexOf('Output #0'));
  const match = /Video: rawvideo[^\n]*?\b(\d{2,5})x(\d{2,5})\b/.exec(output);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}
