import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from '../navigation/router';
import { sendAudit, sendLifecycle } from '../api/calls';
import { currentGrantorParams } from '../session/grantor';
import { isPopup, postToOpener } from '../session/popup';
import { readSession } from '../session/session';
import { sessionState } from '../session/storage';
import { setUserDatum } from '../session/userData';
import { forgetJourney } from './facts';
import { next } from './journey';
import { setLock } from '../session/lockout';
import type { Effect, JourneyContext, JourneyEvent, StepId, Transition } from './types';

export function journeyContext(): JourneyContext {
  const session = readSession();
  return {
    params: currentGrantorParams(),
    apikey: session.apikey,
    uuidUser: session.uuidUser,
    uuidTrx: session.uuidTrx,
    idOtorgante: session.idOtorgante,
    fechavigencia: session.fechavigencia,
    isPopup: isPopup(),
    mediaRecorderSupported: typeof MediaRecorder !== 'undefined',
    now: Date.now(),
  };
}

const ignore = (): void => undefined;

/** Runs a transition's effects. Calls are fire-and-forget: failures are already audited by the client. */
export function runEffects(effects: readonly Effect[]): void {
  for (const effect of effects) {
    switch (effect.kind) {
      case 'lifecycle':
        sendLifecycle(effect).catch(ignore);
        break;
      case 'audit':
        sendAudit(effect.paso, effect.tipo, effect.dato).catch(ignore);
        break;
      case 'opener':
        postToOpener(effect.message);
        break;
      case 'userDatum':
        setUserDatum(sessionState(), effect.description, effect.value);
        break;
      case 'markCompleted':
        sessionState().set('completado', 'true');
        break;
      case 'forgetJourney':
        forgetJourney(sessionState());
        break;
      case 'lock':
        setLock(sessionState(), Date.now());
        break;
      case 'closeWindow':
        break;
    }
  }
}

/**
 * A screen's way to move on: report an event, the journey decides. Effects run at once; the navigation
 * (or the popup closing) happens after the transition's delay, and is dropped if the screen unmounts first.
 */
export function useJourney<S extends StepId>(step: S): (event: JourneyEvent<S>) => Transition | null {
  const navigate = useNavigate();
  const timers = useRef(new Set<number>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const id of pending) window.clearTimeout(id);
      pending.clear();
    };
  }, []);

  return useCallback(
    (event: JourneyEvent<S>) => {
      const transition = next(step, event, journeyContext());
      if (!transition) return null;
      runEffects(transition.effects ?? []);
      const finish = (): void => {
        if (transition.effects?.some((e) => e.kind === 'closeWindow') && isPopup()) {
          window.close();
          if (window.closed) return;
        }
        if (transition.route !== null) {
          void navigate(transition.route, { replace: transition.replace ?? false, state: transition.state });
        }
      };
      if (transition.delayMs > 0) {
        const id = window.setTimeout(() => {
          timers.current.delete(id);
          finish();
        }, transition.delayMs);
        timers.current.add(id);
      } else {
        finish();
      }
      return transition;
    },
    [step, navigate],
  );
}
