import { useCallback, useEffect, useState } from 'react';
import { fetchGrantorParams } from '../../api/calls';
import { ApiError, isAbortError } from '../../api/client';
import { forgetPopupLaunch, verifyPopupLaunch } from '../../api/launcher';
import { hasPopupQuery } from '../../session/popup';
import { currentGrantorParams, setGrantorParams } from '../../session/grantor';
import { beginJourney } from '../../session/start';
import { setLock } from '../../session/lockout';
import { sessionState } from '../../session/storage';

/** ready: parameters loaded; badUrl: the server answered with an error; offline: no answer at all; locked: the server keeps a lock. */
export type StartStatus = 'loading' | 'ready' | 'badUrl' | 'offline' | 'locked';

/**
 * Spec §9 "start loading clears after 2 s", read as: the loading state (spinner) ends when the grantor
 * parameters arrive or fail, and at the latest 2 s after the start; EMPEZAR stays disabled until the
 * parameters have actually loaded (docs/flow.md §2), so a slow answer shows the entry screen with a status line.
 */
export const startSpinnerMaxMs = 2000;

let startedForLocation: string | null = null;
/** The visit whose start the opener has not heard of yet (popup mode: told once the launch is verified). */
let enterPendingFor: string | null = null;

/** Whether the entry is re-entered within the same journey (back from the help screen). */
function canResume(apikey: string, resume: boolean): boolean {
  const storage = sessionState();
  return resume && storage.get('apikeyOtorgante') === apikey && Boolean(storage.get('uuidTrx') && storage.get('uuidUser'));
}

export function useStart(apikey: string, search: string, locationKey: string, resume: boolean, onStarted: () => void) {
  const [status, setStatus] = useState<StartStatus>('loading');
  const [spinner, setSpinner] = useState(true);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const resuming = canResume(apikey, resume);
    // Once per visit of the entry route (StrictMode runs effects twice; retries re-run the fetch only).
    if (!resuming && startedForLocation !== locationKey) {
      startedForLocation = locationKey;
      beginJourney({ apikey, search }, sessionState(), () => crypto.randomUUID());
      setGrantorParams(null);
      // In popup mode the opener hears of the start only once the server has verified the launch.
      if (hasPopupQuery(search)) enterPendingFor = locationKey;
      else onStarted();
    }
    if (resuming && currentGrantorParams()) {
      setStatus('ready');
      setSpinner(false);
      return;
    }

    setStatus('loading');
    setSpinner(true);
    const controller = new AbortController();
    const timer = window.setTimeout(() => setSpinner(false), startSpinnerMaxMs);
    fetchGrantorParams('inicio', controller.signal)
      .then(async (params) => {
        await verifyPopupLaunch('inicio', controller.signal);
        return params;
      })
      .then(
        (params) => {
          setGrantorParams(params);
          setStatus('ready');
          setSpinner(false);
          if (enterPendingFor === locationKey) {
            enterPendingFor = null;
            onStarted();
          }
        },
        (error: unknown) => {
          if (isAbortError(error)) return;
          // The server keeps this client's lock (its attempts ran out): the panel shows until it ends.
          if (error instanceof ApiError && error.status === 429 && error.lockedUntil) {
            setLock(sessionState(), Date.now(), error.lockedUntil);
            setStatus('locked');
            setSpinner(false);
            return;
          }
          if (error instanceof ApiError && error.hasResponse) forgetPopupLaunch();
          // The client has already recorded the failure to the audit call (docs/flow.md §8).
          setStatus(error instanceof ApiError && error.hasResponse ? 'badUrl' : 'offline');
          setSpinner(false);
        },
      );
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
    // onStarted is an event callback; the journey restarts only for a new api key or visit.
  }, [apikey, search, locationKey, resume, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { status, spinner, retry };
}
