/**
 * Spec §4 "Watchdog: over 50 s without response shows an error." Runs `verdict` with a signal that is aborted when
 * the time runs out (the request is dropped) or when `outer` aborts (the screen left); on time-out the promise
 * rejects with `timedOut()`.
 */
export function withWatchdog<T>(verdict: (signal: AbortSignal) => Promise<T>, ms: number, outer: AbortSignal, timedOut: () => Error): Promise<T> {
  const watchdog = new AbortController();
  const onAbort = () => watchdog.abort();
  outer.addEventListener('abort', onAbort, { once: true });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      watchdog.abort();
      reject(timedOut());
    }, ms);
    verdict(watchdog.signal).then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }).finally(() => outer.removeEventListener('abort', onAbort));
}
