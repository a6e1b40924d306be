import type { BusyWait } from './client';

/**
 * Whether a call is waiting to be sent again because the server was busy (a 503 with Retry-After): the client
 * reports each wait, the shell shows a line while any wait is pending. A wait ends on its own when its time is up;
 * the next report replaces it.
 */
type Listener = (busy: boolean) => void;

const listeners = new Set<Listener>();
let pendingUntil = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

function publish(busy: boolean): void {
  for (const listener of listeners) listener(busy);
}

/** Called by the client before it waits; `now` for tests. */
export function reportBusyWait(wait: Pick<BusyWait, 'waitMs'>, now: number = Date.now()): void {
  pendingUntil = Math.max(pendingUntil, now + wait.waitMs);
  if (timer) clearTimeout(timer);
  // A little past the wait: the call is on its way again and usually answered by then.
  timer = setTimeout(endBusyWait, pendingUntil - now + 500);
  publish(true);
}

export function endBusyWait(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  pendingUntil = 0;
  publish(false);
}

export function isBusyWaiting(): boolean {
  return pendingUntil > 0;
}

export function onBusyChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
