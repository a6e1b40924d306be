import { FaceEngineError, type FaceEngine } from '../face/types.js';
import type { Closable, LazyEngineProvider } from '../lazy-provider.js';
import { OcrImageError } from '../ocr/engine.js';
import type { OcrEngine } from '../ocr/types.js';
import { decodeEngineMessage, encodeEngineMessage, engineContentType, engineServicePaths, type EngineFailureKind, type EngineServiceOp } from './protocol.js';

/** The worker's engines are all busy (its queue full or its wait over): the caller answers 503 Busy, as for a local engine. */
export class EngineBusyError extends Error {
  override name = 'EngineBusyError';
}

export interface EngineServiceTarget {
  /** Base URLs of the workers serving engines; calls go round-robin. */
  urls: readonly string[];
  token: string;
  /** How long one call may take (a face decision's frames, an OCR read), ms. */
  timeoutMs?: number;
}

/** One engine call on the next worker: its answer, or the local engine's error for its refusal. */
function engineCaller(target: EngineServiceTarget) {
  let next = 0;
  return async <T>(op: EngineServiceOp, args: unknown[]): Promise<T> => {
    const base = target.urls[next++ % target.urls.length]!;
    const sent = encodeEngineMessage(args);
    const response = await fetch(new URL(engineServicePaths[op], base), {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': engineContentType },
      // serialize() allocates a plain ArrayBuffer (never a shared one), which is what fetch's body type asks.
      body: sent as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(target.timeoutMs ?? 120_000),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.ok) return decodeEngineMessage<T>(bytes);
    const failure = (JSON.parse(bytes.toString('utf8') || '{}') as { kind?: EngineFailureKind; message?: string }) ?? {};
    const message = failure.message ?? `engine service answered ${response.status}`;
    if (failure.kind === 'image') throw new OcrImageError(message);
    if (failure.kind === 'face') throw new FaceEngineError(message);
    if (failure.kind === 'busy') throw new EngineBusyError(message);
    throw new Error(`engine service ${op}: ${response.status} ${message}`);
  };
}

/** The OCR engine of the workers: the same calls as the local one, run there. */
export function remoteOcrEngine(target: EngineServiceTarget): OcrEngine {
  const call = engineCaller(target);
  return {
    read: (input) => call('ocrRead', [input]),
    readProof: (image) => call('ocrReadProof', [image]),
    close: async () => undefined,
  };
}

/** The face engine of the workers. */
export function remoteFaceEngine(target: EngineServiceTarget): FaceEngine {
  const call = engineCaller(target);
  return {
    analyse: (image, mode) => call('faceAnalyse', [image, mode]),
    track: (frames) => call('faceTrack', [frames]),
    close: async () => undefined,
  };
}

/**
 * A provider whose runs may meet a worker's busy answer: that run resolves to undefined, as when this process's own
 * slots are taken, and the caller answers 503 Busy. (A local engine never throws EngineBusyError: nothing changes.)
 */
export function busyWhenRemoteBusy<E extends Closable>(provider: LazyEngineProvider<E>): LazyEngineProvider<E> {
  return {
    ...provider,
    withSlot: (run) =>
      provider.withSlot(run).catch((error: unknown) => {
        if (error instanceof EngineBusyError) return undefined;
        throw error;
      }),
  };
}

/** Whether a worker of the engine service answers ready (its /readyz within 2 s): an API node without one is not ready. */
export async function engineServiceReady(urls: readonly string[]): Promise<boolean> {
  const answers = await Promise.all(
    urls.map((base) =>
      fetch(new URL('/readyz', base), { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.ok,
        () => false,
      ),
    ),
  );
  return answers.some(Boolean);
}
