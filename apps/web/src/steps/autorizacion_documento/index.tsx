import { useJourney } from '../../journey/run';
import { ConsentDocumentPage } from '../clausula/ConsentDocumentPage';

export function Component() {
  const journey = useJourney('autorizacion_documento');
  return (
    <ConsentDocumentPage
      kind="autorizacion"
      step="autorizacion_documento"
      onAccept={(acceptance) => journey({ type: 'accept', acceptance })}
      onLockoutToEntry={() => journey({ type: 'acknowledgeLockout' })}
    />
  );
}
