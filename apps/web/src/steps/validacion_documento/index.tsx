import { useJourney } from '../../journey/run';
import { ConsentDocumentPage } from '../clausula/ConsentDocumentPage';

export function Component() {
  const journey = useJourney('validacion_documento');
  return (
    <ConsentDocumentPage
      kind="clausula"
      step="validacion_documento"
      onAccept={(acceptance) => journey({ type: 'accept', acceptance })}
      onLockoutToEntry={() => journey({ type: 'acknowledgeLockout' })}
    />
  );
}
