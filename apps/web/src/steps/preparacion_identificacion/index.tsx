import { paramEnabled } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useRuta } from '../../journey/ruta';
import { useGrantorParams } from '../../session/grantor';
import { copy } from '../../ui/copy';
import { PreparationScreen } from '../../ui/PreparationScreen';
import { TipList } from '../../ui/TipList';
import './preparacion_identificacion.css';

export function Component() {
  const params = useGrantorParams();
  const journey = useJourney('preparacion_identificacion');
  const ruta = useRuta();
  const dni = paramEnabled(params, 'VARIANTE_DNI');

  return (
    <PreparationScreen
      title={copy.preparation.title}
      step="preparacion_identificacion"
      captureLabel={copy.preparation.capture}
      cancelLabel={copy.common.cancel}
      onCapture={() => journey({ type: 'capture' })}
      onCancelConfirmed={() => journey({ type: 'cancelConfirmed', ruta })}
    >
      <h2 className="section-title">{copy.preparation.tipsTitle}</h2>
      <TipList
        tips={[
          { icon: 'calendar', text: copy.preparation.tipCurrent },
          { icon: 'focus', text: copy.preparation.tipSharp },
          { icon: 'sun', text: copy.preparation.tipGlare },
        ]}
      />
      <h2 className="section-title">{copy.preparation.allowedTitle}</h2>
      <ul className="allowed-ids">
        {dni ? (
          <li>{copy.preparation.allowedDni}</li>
        ) : (
          <>
            <li>{copy.preparation.allowedIne}</li>
            <li>{copy.preparation.allowedFm}</li>
            <li>{copy.preparation.allowedPassport}</li>
          </>
        )}
      </ul>
    </PreparationScreen>
  );
}
