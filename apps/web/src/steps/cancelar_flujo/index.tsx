import { useParams } from '../../navigation/router';
import { useJourney } from '../../journey/run';
import { processFolio } from '../../session/session';
import { copy } from '../../ui/copy';
import { Screen } from '../../ui/Screen';

export function Component() {
  const { ruta = '' } = useParams();
  const journey = useJourney('cancelar_flujo');
  const folio = processFolio();

  return (
    <Screen
      title={copy.cancelled.title}
      step="cancelar_flujo"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={() => journey({ type: 'reopen', ruta })}>
            {copy.cancelled.reopen}
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => journey({ type: 'restart' })}>
            {copy.cancelled.restart}
          </button>
        </>
      }
    >
      <p>{copy.cancelled.message}</p>
      {folio ? (
        <p className="folio">
          {copy.common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
    </Screen>
  );
}
