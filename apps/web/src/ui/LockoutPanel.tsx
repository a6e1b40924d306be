import { folioOf } from '@kyc/contracts/state';
import { sessionState } from '../session/storage';
import { texts as common } from '../i18n/es-MX/common';
import { Screen } from './Screen';

/** When the lock ends, as the person reads a clock (es-MX, 24 h), or null when no future time is stored. */
export function lockEndsAt(time: string | null, now: number): string | null {
  const until = Number(time);
  if (!time || !Number.isFinite(until) || until <= now) return null;
  return new Date(until).toLocaleTimeString('es-MX', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** Spec §2 final screens: "Lockout panel 'Proceso no exitoso' with folio and ENTENDIDO" (attempts-exceeded text of §8). */
export function LockoutPanel({ onAcknowledge, step }: { onAcknowledge: () => void; step: string }) {
  const folio = folioOf(sessionState().get('uuidUser'));
  const until = lockEndsAt(sessionState().get('time'), Date.now());
  return (
    <Screen
      title={common.lockout.title}
      step={step}
      className="lockout"
      actions={
        <button type="button" className="btn btn--primary" onClick={onAcknowledge}>
          {common.understood}
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {common.lockout.message}
      </p>
      {until ? (
        <p className="lockout__until" data-testid="lockout-until">
          {common.lockout.until(until)}
        </p>
      ) : null}
      {folio ? (
        <p className="folio">
          {common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
    </Screen>
  );
}
