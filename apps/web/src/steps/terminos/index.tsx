import { useEffect, useMemo } from 'react';
import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { sessionState } from '../../session/storage';
import { userName } from '../../session/userData';
import { texts } from '../../i18n/es-MX/terminos';
import { DocumentAcceptScreen } from '../../ui/DocumentAcceptScreen';
import { PendingStep } from '../../ui/PendingStep';
import { termsDocument } from './terms';
import './terminos.css';

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('terminos');
  const required = paramEnabled(params, 'REQ_ACEPTACION_DE_DATOS');
  const terms = useMemo(() => termsDocument(params, userName(sessionState()), new Date()), [params]);

  // REQ_ACEPTACION_DE_DATOS FALSO: straight on to the ID preparation.
  useEffect(() => {
    journey({ type: 'enter' });
  }, [journey]);

  if (!required) return <PendingStep step="terminos" />;

  return (
    <DocumentAcceptScreen
      title={terms.title}
      step="terminos"
      block="terms"
      document={terms}
      acceptLabel={texts.accept}
      acceptedLabel={texts.accepted}
      onAccept={(acceptance) => journey({ type: 'accept', acceptance })}
      before={<p className="terms__date">{terms.dateLine}</p>}
    />
  );
}
