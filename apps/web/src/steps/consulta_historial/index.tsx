import { useMemo, useState } from 'react';
import type { GrantorParam } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { CancelDialog } from '../../ui/CancelDialog';
import { texts as common } from '../../i18n/es-MX/common';
import { DocumentAcceptScreen } from '../../ui/DocumentAcceptScreen';
import { datedDocument } from '../terminos/terms';
import { texts } from '../../i18n/es-MX/consulta_historial';
import '../terminos/terminos.css';

/** The credit-history consent document: title, legal city and date, text and version (grantor parameters). */
export function creditConsent(params: readonly GrantorParam[] | null, user: string | null, now: Date) {
  return datedDocument(params, { title: 'TITULO_CONSULTA_HISTORIAL', text: 'TEXTO_CONSULTA_HISTORIAL', version: 'VERSION_CONSULTA_HISTORIAL' }, user, now);
}

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('consulta_historial');
  const [cancelOpen, setCancelOpen] = useState(false);
  const consent = useMemo(() => creditConsent(params, userName(sessionState()), new Date()), [params]);

  return (
    <DocumentAcceptScreen
      title={consent.title}
      step="consulta_historial"
      block="terms"
      document={consent}
      acceptLabel={texts.accept}
      acceptedLabel={texts.accepted}
      onAccept={(acceptance) => journey({ type: 'accept', acceptance })}
      extraActions={(accepted) => (
        <button type="button" className="btn btn--secondary" disabled={accepted} onClick={() => setCancelOpen(true)}>
          {common.cancel}
        </button>
      )}
      before={<p className="terms__date">{consent.dateLine}</p>}
    >
      <CancelDialog open={cancelOpen} onDismiss={() => setCancelOpen(false)} onConfirm={() => journey({ type: 'cancelConfirmed' })} />
    </DocumentAcceptScreen>
  );
}
