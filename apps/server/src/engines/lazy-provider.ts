/** An engine a provider can stop. */
export interface Closable {
  close(): Promise<void>;
}

/** idle: never asked for; failed: its last start threw (the next use tries again). */
export type EngineStatus = 'idle' | 'starting' | 'ready' | 'failed';

/**
 * An engine started on first use and shared by every request of the process. At most `maxInFlight` runs go at
 * once; a run past them waits its turn in a bounded first-in first-out queue (`queue.length` waiting at most, each
 * for `queue.waitMs` at most). A run the queue cannot take, or whose wait ran out, resolves to undefined and the
 * caller answers 503 Busy (with Retry-After, http/errors.ts).
 */
export interface LazyEngineProvider<E extends Closable> {
  get(): Promise<E>;
  status(): EngineStatus;
  withSlot<T>(run: (engine: E) => Promise<T>): Promise<T | undefined>;
  /** Runs waiting for a slot now. */
  queued(): number;
  close(): Promise<void>;
}

/** ENGINE_QUEUE_LENGTH and ENGINE_QUEUE_WAIT_MS: how many runs may wait for a slot, and how long each. */
export interface EngineQueueOptions {
  length: number;
  waitMs: number;
}

/** 16 waiting runs are ~16-30 s of work on two cores: past that a client is better told to come back. */
export const defaultEngineQueue: EngineQueueOptions = { length: 16, waitMs: 30_000 };

/**
 * A minute after a burst the engines' memory (~0.8 GB for the face workers, ~0.3 GB for OCR) should be back with
 * the system: 45 s unused closes them. The flow's first call warms them again (docs/decisions.md).
 */
export const defaultEngineIdleCloseSeconds = 45;

export interface LazyEngineOptions {
  /** When true, `close` ignores an engine whose start failed instead of rethrowing that failure. */
  ignoreFailedStartOnClose?: boolean;
  /** Waiting runs; `{ length: 0 }` refuses at once when every slot is busy. */
  queue?: EngineQueueOptions;
  /**
   * Close the engine once nothing has used it for this long (ENGINE_IDLE_CLOSE_SECONDS): its workers' memory goes
   * back to the system and the next use starts it again. 0 or absent: kept until the process closes.
   */
  idleCloseMs?: number;
}

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout | undefined;
}

export function lazyEngine<E extends Closable>(create: () => Promise<E>, maxInFlight: number, options: LazyEngineOptions = {}): LazyEngineProvider<E> {
  const queue = options.queue ?? defaultEngineQueue;
  let engine: Promise<E> | undefined;
  let inFlight = 0;
  let status: EngineStatus = 'idle';
  const waiting: Waiter[] = [];
  let idleTimer: NodeJS.Timeout | undefined;
  const closeEngine = async () => {
    const started = engine;
    engine = undefined;
    status = 'idle';
    if (!started) return;
    const running = options.ignoreFailedStartOnClose ? await started.catch(() => undefined) : await started;
    await running?.close();
  };
  const closeIfIdle = () => {
    idleTimer = undefined;
    // A failed close leaves nothing to retry: the engine is already forgotten and the next use starts a new one.
    if (inFlight === 0 && waiting.length === 0) closeEngine().catch(() => undefined);
  };
  /** Any use of the engine starts its idle time again; the timer does not keep the process alive. */
  const touch = () => {
    if (!options.idleCloseMs) return;
    if (idleTimer) idleTimer.refresh();
    else idleTimer = setTimeout(closeIfIdle, options.idleCloseMs).unref();
  };
  const get = () => {
    touch();
    if (!engine) {
      status = 'starting';
      engine = create().then(
        (started) => {
          status = 'ready';
          return started;
        },
        (error: unknown) => {
          engine = undefined;
          status = 'failed';
          throw error;
        },
      );
    }
    return engine;
  };
  /** Resolves true once a slot is this run's (the slot is counted), false when the queue is full or the wait ran out. */
  const acquire = (): Promise<boolean> | boolean => {
    if (inFlight < maxInFlight && waiting.length === 0) {
      inFlight += 1;
      return true;
    }
    if (waiting.length >= queue.length) return false;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          if (waiter.timer) clearTimeout(waiter.timer);
          resolve(true);
        },
        timer: setTimeout(() => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          resolve(false);
        }, queue.waitMs),
      };
      waiting.push(waiter);
    });
  };
  // A finished run hands its slot straight to the first waiter, so a newcomer cannot overtake the queue.
  const release = () => {
    const next = waiting.shift();
    if (next) next.grant();
    else inFlight -= 1;
    touch();
  };
  return {
    get,
    status: () => status,
    queued: () => waiting.length,
    async withSlot(run) {
      if (!(await acquire())) return undefined;
      try {
        return await run(await get());
      } finally {
        release();
      }
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      await closeEngine();
    },
  };
}
