import { useJourney } from '../../journey/run';
import { ConsentIntro } from '../clausula/ConsentIntro';

export function Component() {
  const journey = useJourney('autorizacion_solicitud');
  return <ConsentIntro kind="autorizacion" step="autorizacion_solicitud" onRead={() => journey({ type: 'read' })} onCancelConfirmed={(ruta) => journey({ type: 'cancelConfirmed', ruta })} />;
}
