import { useEffect, useState } from 'react';
import { useLocation } from '../../navigation/router';
import { paramEnabled } from '@kyc/contracts/params';
import { ApiError } from '../../api/client';
import { sendSmsCode, verifySmsCode } from '../../api/sms';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { CancelDialog } from '../../ui/CancelDialog';
import { texts as common } from '../../i18n/es-MX/common';
import { Screen } from '../../ui/Screen';
import { SmsField, SmsStatus } from '../validar_movil/SmsField';
import { texts } from '../../i18n/es-MX/validar_sms';
import { digitsOnly, formatPhone, phoneRules } from '../validar_movil/phone';
import '../validar_movil/sms.css';

/** Spec §9: the resend-code button appears after 30 s. */
export const resendAfterSeconds = 30;
const codeDigits = 6;

function phoneOf(state: unknown): string {
  const fromState = typeof state === 'object' && state !== null ? (state as { phone?: unknown }).phone : undefined;
  return typeof fromState === 'string' ? fromState : (sessionState().get('movil') ?? '');
}

function messageOf(failure: unknown): string {
  return failure instanceof ApiError && failure.messageClient ? failure.messageClient : texts.failed;
}

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('validar_sms');
  const location = useLocation();
  const phone = phoneOf(location.state);
  const { areaCode } = phoneRules(paramEnabled(params, 'VARIANTE_DNI'));
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [resending, setResending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sentAt, setSentAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const [cancelOpen, setCancelOpen] = useState(false);
  const waitLeft = Math.max(0, Math.ceil((sentAt + resendAfterSeconds * 1000 - now) / 1000));

  useEffect(() => {
    if (!phone) journey({ type: 'missingPhone' });
  }, [phone, journey]);

  useEffect(() => {
    if (waitLeft === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [waitLeft === 0, sentAt]);

  async function validate(): Promise<void> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await verifySmsCode('validar_sms', phone, areaCode, code);
      setDone(true);
      journey({ type: 'verified', phone });
    } catch (failure) {
      setBusy(false);
      setError(messageOf(failure));
    }
  }

  async function resend(): Promise<void> {
    setBusy(true);
    setResending(true);
    setError(null);
    setNotice(null);
    try {
      await sendSmsCode('validar_sms', phone, areaCode);
      setCode('');
      setNotice(texts.resent);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSentAt(Date.now());
      setNow(Date.now());
      setBusy(false);
      setResending(false);
    }
  }

  return (
    <Screen
      title={texts.title}
      step="validar_sms"
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={code === '' || busy || done} onClick={() => void validate()}>
            {texts.validate}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy || done} onClick={() => setCancelOpen(true)}>
            {common.cancel}
          </button>
        </>
      }
    >
      <p>{texts.sentTo}</p>
      <p className="sms__number">{formatPhone(areaCode, phone)}</p>
      <SmsField
        className="sms-field sms-field--code"
        label={texts.label}
        hint={texts.hint}
        onSubmit={() => {
          if (code !== '' && !busy && !done) void validate();
        }}
      >
        {({ inputId, hintId }) => (
          <input
            id={inputId}
            className="sms-field__input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            value={code}
            disabled={busy || done}
            onChange={(event) => setCode(digitsOnly(event.target.value, codeDigits))}
          />
        )}
      </SmsField>
      <div className="sms__resend">
        {waitLeft === 0 ? (
          <button type="button" className="btn btn--text" disabled={busy || done} onClick={() => void resend()}>
            {texts.resend}
          </button>
        ) : (
          <p className="sms-field__hint">{texts.resendIn(waitLeft)}</p>
        )}
      </div>
      <SmsStatus status={done ? texts.verified : resending ? common.loading : busy ? texts.validating : notice} error={error} />
      <CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed' })} />
    </Screen>
  );
}
