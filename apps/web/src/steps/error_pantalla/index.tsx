import { useState } from 'react';
import { useLocation } from '../../navigation/router';
import { paramInt } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { readIntents, type IdSide } from '../../session/idCapture';
import { sessionState } from '../../session/storage';
import { CaptureTips } from '../../ui/CaptureTips';
import { texts } from '../../i18n/es-MX/error_pantalla';
import { Screen } from '../../ui/Screen';
import { attemptsLeft } from './attempts';

interface ErrorState {
  side: IdSide;
  passport: boolean;
  message: string | null;
}

function errorStateOf(state: unknown): ErrorState {
  const value = (typeof state === 'object' && state !== null ? state : {}) as Record<string, unknown>;
  return {
    side: value.side === 'back' ? 'back' : 'front',
    passport: value.passport === true,
    message: typeof value.message === 'string' && value.message.trim() ? value.message : null,
  };
}

/**
 * /error_pantalla (docs/flow.md §2): why the read failed (the server's message_client or the docs/flow.md §8 text, passed by
 * /identificacion), the capture tips (dark background, focus within the frame, avoid glare), the attempts
 * left as mirrored in intentsData, and 'Capturar nuevamente' back to the same side, or 'Cancelar'.
 */
export function Component() {
  const location = useLocation();
  const journey = useJourney('error_pantalla');
  const params = useGrantorParams();
  const [error] = useState(() => errorStateOf(location.state));
  const [leaving, setLeaving] = useState(false);
  const intents = readIntents(sessionState());
  const left = attemptsLeft(error.side, intents, paramInt(params, 'INTENTOS_ID_FRONTAL'), paramInt(params, 'INTENTOS_ID_REVERSO'));

  return (
    <Screen
      title={error.side === 'back' ? texts.titleBack : texts.title}
      step="error_pantalla"
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              journey({ type: 'recapture', passport: error.passport, side: error.side });
            }}
          >
            {texts.recapture}
          </button>
          <button
            type="button"
            className="btn btn--secondary"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              journey({ type: 'cancel' });
            }}
          >
            {texts.cancel}
          </button>
        </>
      }
    >
      {error.message ? (
        <p className="notice__message" role="alert">
          {error.message}
        </p>
      ) : null}
      {left !== null ? <p>{texts.attemptsLeft(left)}</p> : null}
      <CaptureTips />
    </Screen>
  );
}
