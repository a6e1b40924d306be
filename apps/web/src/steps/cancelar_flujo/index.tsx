import { useParams } from '../../navigation/router';
import { useJourney } from '../../journey/run';
import { processFolio } from '../../session/session';
import { texts as common } from '../../i18n/es-MX/common';
import { texts } from '../../i18n/es-MX/cancelar_flujo';
import { Screen } from '../../ui/Screen';

export function Component() {
  const { ruta = '' } = useParams();
  const journey = useJourney('cancelar_flujo');
  const folio = processFolio();

  return (
    <Screen
      title={texts.title}
      step="cancelar_flujo"
      actions={
        <>
          <button type="button" className="btn btn--primary" onClick={() => journey({ type: 'reopen', ruta })}>
            {texts.reopen}
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => journey({ type: 'restart' })}>
            {texts.restart}
          </button>
        </>
      }
    >
      <p>{texts.message}</p>
      {folio ? (
        <p className="folio">
          {common.folio}: <strong>{folio}</strong>
        </p>
      ) : null}
    </Screen>
  );
}
