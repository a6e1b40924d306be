import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { faceTimings } from './schedule';
import { withWatchdog } from './watchdog';

class TimedOut extends Error {}

/** A request that answers only when aborted (like fetch with a signal), or never. */
function pending(seen: AbortSignal[]): (signal: AbortSignal) => Promise<string> {
  return (signal) => {
    seen.push(signal);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  };
}

describe('response watchdog (docs/flow.md §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('over 50 s without response: the request is dropped and the time-out error comes out', async () => {
    const seen: AbortSignal[] = [];
    const result = withWatchdog(pending(seen), faceTimings.watchdogMs, new AbortController().signal, () => new TimedOut());
    const settled = result.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(faceTimings.watchdogMs - 1);
    expect(seen[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toBeInstanceOf(TimedOut);
    expect(seen[0]?.aborted).toBe(true);
  });

  it('an answer in time wins and stops the clock', async () => {
    const result = withWatchdog(
      async () => 'match',
      faceTimings.watchdogMs,
      new AbortController().signal,
      () => new TimedOut(),
    );
    await expect(result).resolves.toBe('match');
    await vi.advanceTimersByTimeAsync(faceTimings.watchdogMs * 2);
  });

  it('leaving the screen aborts the request; the abort error is passed on, not a time-out', async () => {
    const seen: AbortSignal[] = [];
    const outer = new AbortController();
    const result = withWatchdog(pending(seen), faceTimings.watchdogMs, outer.signal, () => new TimedOut());
    outer.abort();
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });
});
