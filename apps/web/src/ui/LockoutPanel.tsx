import { errorTexts } from '@kyc/contracts/texts';
import { folioOf } from '@kyc/contracts/state';
import { sessionState } from '../session/storage';
import { copy } from './copy';
import { Screen } from './Screen';

/** Spec §2 final screens: "Lockout panel 'Proceso no exitoso' with folio and ENTENDIDO" (attempts-exceeded text of §8). */
export function LockoutPanel({ onAcknowledge, step }: { onAcknowledge: () => void; step: string }) {
  const folio = folioOf(sessionState().get('uuidUser'));
  return (
    <Screen
      title="Proceso no exitoso"
      step={step}
      className="lockout"
      actions={
        <button type="button" className="btn btn--primary" onClick={onAcknowledge}>
          ENTENDIDO
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {errorTexts.attemptsExceeded}
      </p>
      {folio ? (
        <p className="folio">
          {copy.common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
    </Screen>
  );
}
