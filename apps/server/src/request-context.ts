import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the HTTP request being served, for code below the routes that has no request at hand (a job
 * enqueued deep in a feature carries it to the worker). Set by the root's onRequest hook (app.ts).
 */
const storage = new AsyncLocalStorage<{ requestId: string }>();

export function runWithRequestId(requestId: string, run: () => void): void {
  storage.run({ requestId }, run);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
