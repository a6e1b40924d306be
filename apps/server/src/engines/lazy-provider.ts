/** An engine a provider can stop. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * An engine started on first use and shared by every request of the process. At most `maxInFlight` runs go at
 * once; beyond that `withSlot` resolves to undefined and the caller answers 503.
 */
/** idle: never asked for; failed: its last start threw (the next use tries again). */
export type EngineStatus = 'idle' | 'starting' | 'ready' | 'failed';

export interface LazyEngineProvider<E extends Closable> {
  get(): Promise<E>;
  status(): EngineStatus;
  withSlot<T>(run: (engine: E) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

export interface LazyEngineOptions {
  /** When true, `close` ignores an engine whose start failed instead of rethrowing that failure. */
  ignoreFailedStartOnClose?: boolean;
}

export function lazyEngine<E extends Closable>(create: () => Promise<E>, maxInFlight: number, options: LazyEngineOptions = {}): LazyEngineProvider<E> {
  let engine: Promise<E> | undefined;
  let inFlight = 0;
  let status: EngineStatus = 'idle';
  const get = () => {
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
  return {
    get,
    status: () => status,
    async withSlot(run) {
      if (inFlight >= maxInFlight) return undefined;
      inFlight += 1;
      try {
        return await run(await get());
      } finally {
        inFlight -= 1;
      }
    },
    async close() {
      const started = engine;
      engine = undefined;
      status = 'idle';
      if (!started) return;
      const running = options.ignoreFailedStartOnClose ? await started.catch(() => undefined) : await started;
      await running?.close();
    },
  };
}
