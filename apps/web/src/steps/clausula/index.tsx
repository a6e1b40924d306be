import { useEffect } from 'react';
import { useJourney } from '../../journey/run';
import { ConsentIntro } from './ConsentIntro';

export function Component() {
  const journey = useJourney('clausula');
  // REQ_MEDIOS_ELECTRONICOS FALSO: straight on to the authorization.
  useEffect(() => {
    journey({ type: 'enter' });
  }, [journey]);
  return <ConsentIntro kind="clausula" step="clausula" onRead={() => journey({ type: 'read' })} onCancelConfirmed={(ruta) => journey({ type: 'cancelConfirmed', ruta })} />;
}
