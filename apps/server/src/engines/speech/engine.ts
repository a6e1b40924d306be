import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WhisperModelFiles } from './model.js';
import type { ChildReply, ChildRequest } from './protocol.js';

export class SpeechEngineError extends Error {
  override name = 'SpeechEngineError';
  /** True when the engine itself is gone (start failed, process died): the next use starts a new one. */
  constructor(
    message: string,
    readonly fatal: boolean,
  ) {
    super(message);
  }
}

/** An offline recogniser running in its own process. */
export interface SpeechEngine {
  /** 'sherpa-onnx 1.13.8' */
  readonly runtime: string;
  /** The transcript of mono float samples in [-1, 1]. */
  transcribe(samples: Float32Array, sampleRate: number): Promise<string>;
  close(): Promise<void>;
}

export interface WhisperEngineOptions {
  files: WhisperModelFiles;
  language?: string;
  threads?: number;
  /** Loading the model (default 120 s: Whisper base on a busy core). */
  startTimeoutMs?: number;
  /** One transcription (default 60 s); the process is killed past it. */
  transcribeTimeoutMs?: number;
  /** Told the recogniser process's id once it is started (for logs, and tests that kill it). */
  onProcess?: (pid: number) => void;
}

/** child.js once built; under tsx/vitest the TypeScript source, with tsx's loader in the child. */
function startChild(): ChildProcess {
  const built = fileURLToPath(new URL('./child.js', import.meta.url));
  const options = { serialization: 'advanced' as const, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[] };
  if (existsSync(built)) return fork(built, [], { ...options, execArgv: [] });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return fork(fileURLToPath(new URL('./child.ts', import.meta.url)), [], { ...options, execArgv: ['--import', tsx] });
}

/** Send failures mean the process is gone: its 'close' event rejects whatever waits on it. */
const ignoreSendError = () => undefined;

const describeExit = (code: number | null, signal: NodeJS.Signals | null) => (signal ? `signal ${signal}` : `exit ${code}`);

/** Starts the recogniser process and loads the model; rejects with the reason when it cannot. */
export async function startWhisperEngine(options: WhisperEngineOptions): Promise<SpeechEngine> {
  const child = startChild();
  // An 'error' event without a listener would end the server itself; the handlers below report the failures.
  child.on('error', () => undefined);
  if (child.pid !== undefined) options.onProcess?.(child.pid);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString('utf8');
  });
  // sherpa-onnx prints its reasons on stderr ("<file>.cc:Validate:105 tokens: '...' does not exist"): the last lines go in the message.
  const lastStderrLine = () =>
    stderr
      .split('\n')
      .map((line) => line.trim().replace(/^\S+\.cc:\w+:\d+\s*/, ''))
      .filter(Boolean)
      .slice(-3)
      .join('; ')
      .slice(0, 400);

  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let failure: SpeechEngineError | undefined;
  const failAll = (error: SpeechEngineError) => {
    failure ??= error;
    for (const waiting of pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    pending.clear();
  };

  const runtime = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new SpeechEngineError(`the speech model did not load within ${options.startTimeoutMs ?? 120_000} ms`, true));
    }, options.startTimeoutMs ?? 120_000);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('close', onExit);
      child.off('error', onError);
    };
    const onMessage = (reply: ChildReply) => {
      if (reply.type === 'ready') {
        done();
        resolve(reply.runtime);
      } else if (reply.type === 'failed') {
        done();
        child.kill('SIGKILL');
        const detail = lastStderrLine();
        reject(new SpeechEngineError(`the speech model did not load: ${reply.error}${detail && !reply.error.includes(detail) ? ` (${detail})` : ''}`, true));
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      done();
      const detail = lastStderrLine();
      reject(new SpeechEngineError(`the speech recogniser process stopped while loading the model (${describeExit(code, signal)})${detail ? `: ${detail}` : ''}`, true));
    };
    const onError = (error: Error) => {
      done();
      reject(new SpeechEngineError(`the speech recogniser process could not start: ${error.message}`, true));
    };
    child.on('message', onMessage);
    // 'close', not 'exit': the process's last stderr lines (its reason) have been read by then.
    child.on('close', onExit);
    child.on('error', onError);
    // A send to a process that already died fails here; its 'close' gives the reason.
    child.send({ type: 'init', files: options.files, language: options.language ?? 'es', threads: options.threads ?? 1 } satisfies ChildRequest, ignoreSendError);
  });

  child.on('message', (reply: ChildReply) => {
    if (reply.type !== 'result' && reply.type !== 'error') return;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.type === 'result') waiting.resolve(reply.text);
    else waiting.reject(new SpeechEngineError(`the recognition failed: ${reply.error}`, false));
  });
  child.on('error', (error) => failAll(new SpeechEngineError(`the speech recogniser process failed: ${error.message}`, true)));
  child.on('close', (code, signal) => {
    const detail = lastStderrLine();
    failAll(new SpeechEngineError(`the speech recogniser process stopped (${describeExit(code, signal)})${detail ? `: ${detail}` : ''}`, true));
  });

  let nextId = 1;
  return {
    runtime,
    transcribe(samples, sampleRate) {
      if (failure) return Promise.reject(failure);
      const id = nextId;
      nextId += 1;
      return new Promise<string>((resolve, reject) => {
        const limit = options.transcribeTimeoutMs ?? 60_000;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new SpeechEngineError(`the recognition took longer than ${limit} ms`, true));
          child.kill('SIGKILL');
        }, limit);
        pending.set(id, { resolve, reject, timer });
        child.send({ type: 'transcribe', id, samples, sampleRate } satisfies ChildRequest, ignoreSendError);
      });
    },
    async close() {
      failure ??= new SpeechEngineError('the speech recogniser is closed', true);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
