import { useMemo, useState } from 'react';
import { paramValue, type GrantorParam } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { CancelDialog } from '../../ui/CancelDialog';
import { copy } from '../../ui/copy';
import { Screen } from '../../ui/Screen';
import { fillPlaceholders, longDate, sha256Hex } from '../terminos/terms';
import { smsCopy } from '../validar_movil/smsCopy';
import '../terminos/terminos.css';

/** The credit-history consent document: title, legal city and date, text and version (grantor parameters). */
export function creditConsent(params: readonly GrantorParam[] | null, user: string | null, now: Date) {
  const grantor = paramValue(params, 'RAZON_SOCIAL').trim() || paramValue(params, 'NOMBRE_CORTO').trim() || copy.terms.grantorFallback;
  const values = { grantor, user: user ?? copy.terms.userFallback };
  return {
    title: fillPlaceholders(paramValue(params, 'TITULO_CONSULTA_HISTORIAL'), values),
    dateLine: copy.terms.dateLine(paramValue(params, 'CIUDAD_LEGAL_DEL_OTORGANTE').trim(), longDate(now)),
    text: fillPlaceholders(paramValue(params, 'TEXTO_CONSULTA_HISTORIAL'), values),
    version: paramValue(params, 'VERSION_CONSULTA_HISTORIAL'),
  };
}

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('consulta_historial');
  const [accepted, setAccepted] = useState(false);
  const [failed, setFailed] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const consent = useMemo(() => creditConsent(params, userName(sessionState()), new Date()), [params]);

  async function accept(): Promise<void> {
    setAccepted(true);
    setFailed(false);
    try {
      const sha256 = await sha256Hex(consent.text);
      journey({ type: 'accept', acceptance: { version: consent.version, sha256, userAgent: navigator.userAgent } });
    } catch {
      setAccepted(false);
      setFailed(true);
    }
  }

  return (
    <Screen
      title={consent.title}
      step="consulta_historial"
      className="terms"
      actions={
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={accepted}
              disabled={accepted}
              onChange={(event) => {
                if (event.target.checked) void accept();
              }}
            />
            <span>{smsCopy.consent.accept}</span>
          </label>
          <div role="status" className="terms__status">
            {accepted ? smsCopy.consent.accepted : null}
          </div>
          <div role="alert" className="terms__status">
            {failed ? copy.notices.unexpected : null}
          </div>
          <button type="button" className="btn btn--secondary" disabled={accepted} onClick={() => setCancelOpen(true)}>
            {copy.common.cancel}
          </button>
        </>
      }
    >
      <p className="terms__date">{consent.dateLine}</p>
      <div className="terms__text">
        {consent.text.split('\n').map((line, index) => (line.trim() ? <p key={index}>{line}</p> : null))}
      </div>
      <CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed' })} />
    </Screen>
  );
}
