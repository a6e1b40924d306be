import { useState } from 'react';
import { paramEnabled } from '@kyc/contracts/params';
import { ApiError } from '../../api/client';
import { sendSmsCode } from '../../api/sms';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { CancelDialog } from '../../ui/CancelDialog';
import { texts as common } from '../../i18n/es-MX/common';
import { Screen } from '../../ui/Screen';
import { SmsField, SmsStatus } from './SmsField';
import { texts } from '../../i18n/es-MX/validar_movil';
import { digitsOnly, phoneRules } from './phone';
import './sms.css';

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('validar_movil');
  const { areaCode, digits } = phoneRules(paramEnabled(params, 'VARIANTE_DNI'));
  const [number, setNumber] = useState(() => digitsOnly(sessionState().get('movil') ?? '', digits));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);

  async function send(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await sendSmsCode('validar_movil', number, areaCode);
      sessionState().set('movil', number);
      journey({ type: 'sent', phone: number });
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof ApiError && failure.messageClient ? failure.messageClient : texts.sendFailed);
    }
  }

  return (
    <Screen
      title={texts.title}
      step="validar_movil"
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={number === '' || busy} onClick={() => void send()}>
            {texts.continue}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setCancelOpen(true)}>
            {common.cancel}
          </button>
        </>
      }
    >
      <p>{texts.intro}</p>
      <SmsField
        className="sms-field"
        label={texts.label}
        hint={texts.hint(digits)}
        onSubmit={() => {
          if (number !== '' && !busy) void send();
        }}
      >
        {({ inputId, hintId }) => (
          <div className="sms-field__row">
            <span className="sms-field__prefix" aria-hidden="true">
              +{areaCode}
            </span>
            <input
              id={inputId}
              className="sms-field__input"
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              aria-describedby={hintId}
              aria-invalid={error ? true : undefined}
              value={number}
              disabled={busy}
              onChange={(event) => setNumber(digitsOnly(event.target.value, digits))}
            />
          </div>
        )}
      </SmsField>
      <SmsStatus status={busy ? texts.sending : null} error={error} />
      <CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed' })} />
    </Screen>
  );
}
