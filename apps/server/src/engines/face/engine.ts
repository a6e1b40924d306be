import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FaceEngineError, type AnalysisMode, type FaceAnalysis, type FaceEngine, type RgbImage } from './types.js';
import { DETECT_EVERY } from './tracker.js';
import type { WorkerReply, WorkerRequest } from './worker.js';

/**
 * The worker module next to this one: worker.js once built; under tsx/vitest the TypeScript source, started
 * through a tiny ES-module bootstrap that registers tsx first (Node 20 does not apply `--import` hooks to a
 * worker's entry file).
 */
function startWorker(workerData: FaceEngineOptions): Worker {
  const built = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(built)) return new Worker(built, { workerData });
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(path.join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
  const source = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(source)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), { workerData });
}

/** Model folders (defaults: the models shipped in @vladmandic/human and @vladmandic/face-api). */
export interface FaceEngineOptions {
  modelsDir?: string;
  recognitionModelsDir?: string;
}

interface WorkerHandle {
  analyse(image: RgbImage, mode: AnalysisMode): Promise<FaceAnalysis>;
  track(frames: readonly RgbImage[]): Promise<FaceAnalysis[]>;
  pending(): number;
  close(): Promise<void>;
}

/** One worker thread with the face models loaded (~0.5 s); rejects if a model is missing. */
async function startFaceWorker(options: FaceEngineOptions): Promise<WorkerHandle> {
  const worker = startWorker({
    ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
    ...(options.recognitionModelsDir ? { recognitionModelsDir: options.recognitionModelsDir } : {}),
  });
  const pending = new Map<number, { resolve: (a: FaceAnalysis | FaceAnalysis[]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failure: Error | undefined;

  const failAll = (error: Error) => {
    failure = error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const onReady = (reply: WorkerReply) => {
      if (reply.id !== 0) return;
      worker.off('message', onReady);
      if ('ready' in reply && reply.ready) resolve();
      else reject(new FaceEngineError(`the face engine did not start: ${'error' in reply ? reply.error : 'unknown error'}`));
    };
    worker.on('message', onReady);
    worker.once('error', (error) => reject(new FaceEngineError(`the face engine did not start: ${error.message}`)));
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });

  worker.on('message', (reply: WorkerReply) => {
    if (reply.id === 0 || !('ok' in reply)) return;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve('analyses' in reply ? reply.analyses : reply.analysis);
    else waiting.reject(new FaceEngineError(reply.error));
  });
  worker.on('error', (error) => failAll(new FaceEngineError(`the face engine failed: ${error.message}`)));
  worker.on('exit', (code) => failAll(new FaceEngineError(`the face engine stopped (exit ${code})`)));

  const send = <T extends FaceAnalysis | FaceAnalysis[]>(request: (id: number) => WorkerRequest, transfer: ArrayBuffer[]): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId;
    nextId += 1;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (a: FaceAnalysis | FaceAnalysis[]) => void, reject });
      worker.postMessage(request(id), transfer);
    });
  };
  // A compact copy of each frame's own bytes is moved to the worker: the caller keeps its frame, and posting the
  // view itself would clone its whole underlying buffer (all the decoded frames of a video). `new Uint8Array` copies
  // also when the data is a Buffer, whose `slice` is a view (transferring its buffer would detach the caller's memory).
  const compact = (image: RgbImage): RgbImage => ({ data: new Uint8Array(image.data), width: image.width, height: image.height });
  return {
    pending: () => pending.size,
    analyse(image, mode) {
      const copy = compact(image);
      return send<FaceAnalysis>((id) => ({ id, image: copy, mode }), [copy.data.buffer as ArrayBuffer]);
    },
    track(frames) {
      const copies = frames.map(compact);
      return send<FaceAnalysis[]>(
        (id) => ({ id, frames: copies }),
        copies.map((c) => c.data.buffer as ArrayBuffer),
      );
    },
    async close() {
      failure ??= new FaceEngineError('the face engine is closed');
      await worker.terminate();
    },
  };
}

/** Default workers: one per core, at most 2 (each holds the models, ~150 MB, and uses one core). */
export function defaultFaceWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/**
 * The face engine: `workers` worker threads, each with its own models; a request goes to the least busy one, so
 * the frames of one video sent together are analysed in parallel.
 */
export async function createFaceEngine(options: FaceEngineOptions & { workers?: number } = {}): Promise<FaceEngine> {
  const count = Math.max(1, options.workers ?? defaultFaceWorkers());
  const started = await Promise.allSettled(Array.from({ length: count }, () => startFaceWorker(options)));
  const workers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled(workers.map((w) => w.close()));
    throw failed.reason;
  }
  return {
    analyse(image, mode) {
      const idle = workers.reduce((best, w) => (w.pending() < best.pending() ? w : best));
      return idle.analyse(image, mode);
    },
    async track(frames) {
      // One contiguous run of frames per worker, each tracked in order (a run starts with a detection).
      const runs = Math.max(1, Math.min(workers.length, Math.floor(frames.length / DETECT_EVERY)));
      const byLoad = [...workers].sort((a, b) => a.pending() - b.pending());
      const parts = await Promise.all(Array.from({ length: runs }, (_, k) => byLoad[k]!.track(frames.slice(Math.floor((k * frames.length) / runs), Math.floor(((k + 1) * frames.length) / runs)))));
      return parts.flat();
    },
    async close() {
      await Promise.allSettled(workers.map((w) => w.close()));
    },
  };
}
