/**
 * The operator's check of a speech model (`node apps/server/dist/cli/asr-check.js <audio-or-video> [code]`): the
 * model of the ASR_* variables checked as the server does (checksums, then loading it), and what it hears in a file.
 * Exit 0: heard (and the code matched when given); 1: the code was not heard; 2: the model or the file is not usable.
 */
import { spawn } from 'node:child_process';
import { saysCode } from './spoken-digits.js';
import { ffmpegBinary } from '../media/decode.js';
import { parseSpeechEnv } from './config.js';
import { startWhisperEngine } from './engine.js';
import { verifyWhisperModel } from './model.js';
import { toFloatSamples, WHISPER_RATE } from './resample.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const usage = 'usage: asr-check <audio-or-video-file> [4-digit code]   (with ASR_MODEL_DIR and ASR_MODEL_SHA256 or ASR_MODEL_SHA256SUMS set)';

/** The first 30 s of the file's first audio track as 16 kHz mono 16-bit samples (what the server analyses). */
function decodeAudio(file: string): Promise<Int16Array> {
  return new Promise((resolve, reject) => {
    const args = ['-nostdin', '-v', 'error', '-i', file, '-map', '0:a:0', '-t', '30', '-ac', '1', '-ar', String(WHISPER_RATE), '-f', 's16le', '-'];
    const child = spawn(ffmpegBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(new Error(`ffmpeg could not run (${ffmpegBinary()}): ${error.message}`)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg could not read the audio of ${file}: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`));
      const pcm = Buffer.concat(chunks);
      resolve(new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2)));
    });
  });
}

export async function runAsrCheck(argv: readonly string[], io: CliIo): Promise<number> {
  const [file, code] = argv;
  if (!file || argv.length > 2 || (code !== undefined && !/^\d{4}$/.test(code))) {
    io.err(usage);
    return 2;
  }
  const parsed = parseSpeechEnv(io.env);
  if (!parsed.ok) {
    io.err(`Invalid configuration: ${parsed.problems.join('; ')}`);
    return 2;
  }
  if (parsed.config.kind === 'none') {
    io.err(`ASR_MODEL_DIR is not set: no speech model is configured (see README, "Spoken code").\n${usage}`);
    return 2;
  }
  const checked = await verifyWhisperModel(parsed.config);
  if (!checked.ok) {
    io.err(`model refused: ${checked.reason}`);
    return 2;
  }
  io.out(`model: ${checked.label}, checksums verified (${checked.checked.join(', ')})`);

  let samples: Int16Array;
  try {
    samples = await decodeAudio(file);
  } catch (error) {
    io.err((error as Error).message);
    return 2;
  }
  io.out(`audio: ${(samples.length / WHISPER_RATE).toFixed(1)} s`);

  let started = Date.now();
  let engine;
  try {
    engine = await startWhisperEngine({ files: checked.files, threads: parsed.config.threads });
  } catch (error) {
    io.err((error as Error).message);
    return 2;
  }
  try {
    io.out(`loaded: ${engine.runtime} in ${Date.now() - started} ms`);
    started = Date.now();
    const transcript = (await engine.transcribe(toFloatSamples(samples, WHISPER_RATE), WHISPER_RATE)).trim();
    io.out(`recognised in ${Date.now() - started} ms`);
    io.out(`transcript: ${transcript}`);
    const { verified, heard } = saysCode(transcript, code ?? '');
    io.out(`digits heard: ${heard || '(none)'}`);
    if (code === undefined) return 0;
    io.out(verified ? `code ${code}: matched` : `code ${code}: NOT matched`);
    return verified ? 0 : 1;
  } catch (error) {
    io.err((error as Error).message);
    return 2;
  } finally {
    await engine.close();
  }
}
