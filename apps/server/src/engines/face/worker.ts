/**
 * Worker-thread entry of the face engine: one human instance (WASM, one core) answering analysis requests, so
 * that ~40-170 ms of inference per frame never blocks the server's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadHumanDetector } from './human.js';
import type { AnalysisMode, RgbImage } from './types.js';

/** One image to analyse, or the consecutive frames of a video to track (tracker.ts). */
export type WorkerRequest = { id: number; image: RgbImage; mode: AnalysisMode } | { id: number; frames: RgbImage[] };
export type WorkerReply =
  | { id: number; ok: true; analysis: import('./types.js').FaceAnalysis }
  | { id: number; ok: true; analyses: import('./types.js').FaceAnalysis[] }
  | { id: number; ok: false; error: string }
  | { id: 0; ready: true; models: string[] }
  | { id: 0; ready: false; error: string };

const port = parentPort;
if (!port) throw new Error('the face worker must run in a worker thread');

loadHumanDetector((workerData ?? {}) as import('./human.js').HumanOptions).then(
  (detector) => {
    port.postMessage({ id: 0, ready: true, models: detector.loadedModels } satisfies WorkerReply);
    let queue = Promise.resolve();
    port.on('message', (request: WorkerRequest) => {
      // One inference at a time: the WASM backend is single-threaded and not re-entrant.
      queue = queue.then(async () => {
        try {
          if ('frames' in request) {
            port.postMessage({ id: request.id, ok: true, analyses: await detector.track(request.frames) } satisfies WorkerReply);
          } else {
            port.postMessage({ id: request.id, ok: true, analysis: await detector.analyse(request.image, request.mode) } satisfies WorkerReply);
          }
        } catch (error) {
          port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
        }
      });
    });
  },
  (error: unknown) => {
    port.postMessage({ id: 0, ready: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  },
);
